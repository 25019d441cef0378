import { loadMcpToolsForRun } from "../../../runtime/mcp/load-tools";
import type { MemoryPolicy } from "../../../runtime/memory/memory-operations";
import type { Tool } from "../../../runtime/tools/types";
import { RathError } from "../../../runtime/errors";
import type { Plan, PlanNode } from "../spec/plan";
import { codeTool } from "./code-tool";
import { nodeOfType, planNode } from "./flow";
import type { NodeEnv } from "./node-env";

/** The tools an agent node gets from its config and its attached Tool nodes. */
export interface AgentTools {
  /** Built-in tools by name (the agent's own list and built-in Tool nodes). */
  readonly builtins: string[];
  /** Code tools and MCP tools (named `server__tool`). */
  readonly tools: Tool[];
  /** True when a code tool is attached: the session is bound to its sandbox before the loop. */
  readonly needsSandbox: boolean;
}

/** Builds the built-in selection and the user tools of an agent node; MCP tools come from the run's pool. */
export async function agentTools(plan: Plan, node: PlanNode, env: NodeEnv): Promise<AgentTools> {
  const agent = nodeOfType(node, "agent");
  const builtins = [...(agent.config.builtins ?? [])];
  const tools: Tool[] = [];
  let needsSandbox = false;
  for (const toolId of node.tools) {
    const config = nodeOfType(planNode(plan, toolId), "tool").config;
    if (config.kind === "builtin") builtins.push(config.name);
    else if (config.kind === "code") {
      tools.push(codeTool(config));
      needsSandbox = true;
    } else {
      tools.push(...(await loadMcpToolsForRun(config.server, env.run, { prefix: true, ...(config.tools ? { include: config.tools } : {}) })));
    }
  }
  return { builtins, tools, needsSandbox };
}

/** The memory policy of an agent node from its attached Memory node (at most one), or undefined. */
export function agentMemory(plan: Plan, node: PlanNode, env: NodeEnv): MemoryPolicy | undefined {
  const [memoryId] = node.memory;
  if (memoryId === undefined) return undefined;
  const config = nodeOfType(planNode(plan, memoryId), "memory").config;
  if (!env.getMemoryStore) {
    throw new RathError("invalid_config", `agent '${node.node.id}' has memory node '${memoryId}' attached, but the engine provides no memory stores (NodeEnv.getMemoryStore)`);
  }
  return {
    store: env.getMemoryStore(config, env.workflowId),
    recall: config.recall ? { within: config.scope, ...(config.topK === undefined ? {} : { k: config.topK }) } : false,
    commit: config.commit,
    ...(config.remember === undefined ? {} : { remember: { uri: config.remember } }),
  };
}
