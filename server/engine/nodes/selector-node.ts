import { Selector } from "../../../runtime/agent/selector";
import { Workflow } from "../../../runtime/agent/workflow";
import type { Session } from "../../../runtime/session/session";
import type { PlanNode } from "../spec/plan";
import { modelChoice, nodeOfType, singleInput } from "./flow";
import type { NodeEnv, NodeResult } from "./node-env";

/**
 * Selector: `Selector.decide` over the plan's candidates (the targets of its `out` edges). The chosen
 * candidate's node is next; -1 follows the `done` edge, or ends the branch when there is none.
 */
export async function executeSelector(node: PlanNode, inputs: readonly Session[], env: NodeEnv): Promise<NodeResult> {
  const selector = nodeOfType(node, "selector");
  const { provider, model } = modelChoice(selector);
  const candidates = node.candidates ?? [];
  const runtime = new Selector({
    name: selector.label ?? selector.id,
    provider: env.getProvider(provider),
    model,
    ...(selector.config.instructions ? { instructions: selector.config.instructions } : {}),
    candidates: candidates.map((candidate) => ({ name: candidate.name, description: candidate.description, workflow: Workflow.empty() })),
  });
  const decision = await runtime.decide(singleInput(node, inputs), env.run);
  const chosen = decision.chosen >= 0 ? candidates[decision.chosen] : undefined;
  if (chosen) {
    return { outputs: [decision.session], next: [{ nodeId: chosen.target, edgeId: chosen.edgeId, output: 0 }], route: { chosen: decision.chosen, target: chosen.target } };
  }
  const done = node.done;
  return {
    outputs: [decision.session],
    next: done ? [{ nodeId: done.target, edgeId: done.edgeId, output: 0 }] : [],
    route: { chosen: -1, target: done?.target ?? null },
  };
}
