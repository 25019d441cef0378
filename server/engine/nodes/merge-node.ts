import { announceSession } from "../../../runtime/agent/announce";
import { RathError } from "../../../runtime/errors";
import type { Session } from "../../../runtime/session/session";
import type { PlanNode } from "../spec/plan";
import { followPort, nodeOfType } from "./flow";
import type { NodeEnv, NodeResult } from "./node-env";

/**
 * Merge: `a.merge(b).merge(c)...` over one session per incoming edge, given in the order of the plan's `join`
 * list (the scheduler waits until every edge of the join has delivered).
 */
export function executeMerge(node: PlanNode, inputs: readonly Session[], env: NodeEnv): NodeResult {
  const merge = nodeOfType(node, "merge");
  const join = node.join ?? [];
  const [first, ...rest] = inputs;
  if (!first || inputs.length !== join.length) {
    throw new RathError("invalid_argument", `merge '${merge.id}' waits for ${join.length} session(s) (edges ${join.join(", ")}); found ${inputs.length}`);
  }
  let merged = first;
  for (const session of rest) merged = merged.merge(session);
  announceSession(env.run, merged);
  return { outputs: [merged], next: followPort(node) };
}
