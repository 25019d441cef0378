import type { Session } from "../../../runtime/session/session";
import type { PlanNode } from "../spec/plan";
import { lastConversationText, nodeOfType, singleInput } from "./flow";
import type { NodeResult } from "./node-env";

/** Output: marks the session as a final result; its text is the last user or assistant text. */
export function executeOutput(node: PlanNode, inputs: readonly Session[]): NodeResult {
  nodeOfType(node, "output");
  const session = singleInput(node, inputs);
  return { outputs: [session], next: [], output: { text: lastConversationText(session)?.text ?? "", sessionId: session.id } };
}
