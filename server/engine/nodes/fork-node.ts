import { announceSession } from "../../../runtime/agent/announce";
import type { Session } from "../../../runtime/session/session";
import type { PlanNode } from "../spec/plan";
import { nodeOfType, singleInput } from "./flow";
import type { NodeEnv, NodeResult } from "./node-env";

/** Fork: one `session.fork()` per outgoing edge, in edge order; output i follows edge i. */
export function executeFork(node: PlanNode, inputs: readonly Session[], env: NodeEnv): NodeResult {
  nodeOfType(node, "fork");
  const session = singleInput(node, inputs);
  const outputs = node.successors.map(() => session.fork());
  for (const fork of outputs) announceSession(env.run, fork);
  return { outputs, next: node.successors.map((edge, output) => ({ nodeId: edge.target, edgeId: edge.edgeId, output })) };
}
