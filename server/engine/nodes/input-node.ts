import { announceSession } from "../../../runtime/agent/announce";
import { Session } from "../../../runtime/session/session";
import type { PlanNode } from "../spec/plan";
import { followPort, nodeOfType } from "./flow";
import type { NodeEnv, NodeResult } from "./node-env";

/**
 * Input: `Session.create("user", input)` placed on the env's sandbox backend. A session handed in (a
 * sub-workflow's parent session) passes through unchanged instead.
 */
export function executeInput(node: PlanNode, inputs: readonly Session[], env: NodeEnv): NodeResult {
  const input = nodeOfType(node, "input");
  const handed = inputs[0];
  let session = handed ?? Session.create("user", env.input ?? input.config.defaultText ?? "", { producer: input.id });
  if (!handed && env.placement) session = session.to(env.placement.backend, env.placement.workingDir === undefined ? {} : { workingDir: env.placement.workingDir });
  announceSession(env.run, session);
  return { outputs: [session], next: followPort(node) };
}
