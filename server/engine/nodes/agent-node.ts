import { Agent, TOOL_EFFECTS_RESOURCE } from "../../../runtime/agent/agent";
import type { RunContext } from "../../../runtime/context";
import type { EffectHooks } from "../../../runtime/tools/effects";
import { bindSandbox } from "../../../runtime/sandbox/bind";
import type { Session } from "../../../runtime/session/session";
import type { Plan, PlanNode } from "../spec/plan";
import { agentMemory, agentTools } from "./agent-tools";
import { followPort, modelChoice, nodeOfType, singleInput } from "./flow";
import type { NodeEnv, NodeResult } from "./node-env";

/**
 * The run context with the step's effect hooks where the runtime Agent's dispatch looks for them. The resources map
 * is the run's own (shared MCP pool, announced sessions), so the hooks are set on it for this step.
 */
function withEffects(run: RunContext, effects: EffectHooks | undefined): RunContext {
  if (!effects) return run;
  const resources = run.resources ?? new Map<string, unknown>();
  resources.set(TOOL_EFFECTS_RESOURCE, effects);
  return run.resources ? run : { ...run, resources };
}

/**
 * Agent: the runtime Agent loop with the built-ins, code tools and MCP tools of its Tool nodes, the memory of its
 * Memory node, its tool policy and round limit, and the workflow's token budget.
 */
export async function executeAgent(plan: Plan, node: PlanNode, inputs: readonly Session[], env: NodeEnv): Promise<NodeResult> {
  const agent = nodeOfType(node, "agent");
  const { provider, model } = modelChoice(agent);
  const { builtins, tools, needsSandbox } = await agentTools(plan, node, env);
  const memory = agentMemory(plan, node, env);
  const runtime = new Agent({
    name: agent.config.name,
    instructions: agent.config.instructions,
    provider: env.getProvider(provider),
    model,
    tools,
    builtins,
    ...(agent.config.policy ? { policy: agent.config.policy } : {}),
    ...(agent.config.maxRounds === undefined ? {} : { maxRounds: agent.config.maxRounds }),
    ...(memory ? { memory } : {}),
    ...(plan.settings.tokenBudget === undefined ? {} : { tokenBudget: { limit: plan.settings.tokenBudget } }),
  });
  const input = singleInput(node, inputs);
  // Code tools run in the session's sandbox, which the agent binds only for built-ins: bind it here.
  const bound = needsSandbox ? await bindSandbox(input) : input;
  try {
    const output = await runtime.forward(bound, withEffects(env.run, env.effects));
    return { outputs: [output], next: followPort(node) };
  } finally {
    if (bound !== input) await bound.release();
  }
}
