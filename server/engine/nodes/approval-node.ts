import { announceChunks, announceSession } from "../../../runtime/agent/announce";
import { RathError } from "../../../runtime/errors";
import { makeChunk, type Chunk } from "../../../runtime/session/chunk";
import { Session } from "../../../runtime/session/session";
import type { PlanNode } from "../spec/plan";
import { followPort, lastConversationText, nodeOfType, singleInput } from "./flow";
import type { ApprovalDecision, NodeEnv, NodeResult } from "./node-env";

function edited(chunk: Chunk, text: string): Chunk {
  if (chunk.kind === "user") return { ...chunk, payload: { content: text } };
  if (chunk.kind === "assistant") return { ...chunk, payload: { ...chunk.payload, content: text } };
  throw new RathError("internal", `expected a user or assistant chunk to edit, found ${chunk.kind}`);
}

/**
 * A new session (a fork of the reviewed one) whose last user or assistant chunk says `text` instead; the rest of
 * the chunks are shared. Lineage records the edit (`approval.edited_index`).
 */
function editSession(session: Session, nodeId: string, text: string): Session {
  const target = lastConversationText(session);
  if (!target) throw new RathError("invalid_argument", `approval '${nodeId}': expected a user or assistant chunk to edit, found none in session ${session.id}`);
  const before = session.chunks.take(target.index);
  const chunk = session.chunks.at(target.index) as Chunk;
  const after = session.chunks.slice(target.index + 1);
  return Session.derive({
    chunks: before.append(edited(chunk, text), ...after),
    parents: [session.id],
    kind: "op_fork",
    operator: "Approval.edit",
    extras: [
      ["approval.node", nodeId],
      ["approval.decision", "edit"],
      ["approval.edited_index", target.index],
    ],
    placementFrom: session,
    usage: session.usage,
  });
}

/**
 * Approval: without a decision, returns an interrupt (the run waits). With one: approve passes the session
 * through, edit replaces the last user/assistant text, respond appends the response as a `user` chunk, and
 * reject fails the branch.
 */
export function executeApproval(node: PlanNode, inputs: readonly Session[], env: NodeEnv, decision?: ApprovalDecision): NodeResult {
  const approval = nodeOfType(node, "approval");
  const session = singleInput(node, inputs);
  if (!decision) {
    const payload = { nodeId: approval.id, sessionId: session.id, text: lastConversationText(session)?.text ?? "", allowEdit: approval.config.allowEdit ?? false };
    return { outputs: [], next: [], interrupt: { prompt: approval.config.prompt, payload } };
  }
  switch (decision.kind) {
    case "approve":
      return { outputs: [session], next: followPort(node) };
    case "reject":
      return {
        outputs: [],
        next: [],
        failure: { code: "approval_rejected", message: `approval '${approval.id}' was rejected${decision.reason ? `: ${decision.reason}` : ""}` },
      };
    case "edit": {
      if (!approval.config.allowEdit) {
        throw new RathError("invalid_argument", `approval '${approval.id}' does not allow edits (allowEdit is false); expected approve, reject or respond`);
      }
      const output = editSession(session, approval.id, decision.text);
      announceSession(env.run, output);
      return { outputs: [output], next: followPort(node) };
    }
    case "respond": {
      const output = session.append(makeChunk("user", { content: decision.text }, { producer: approval.id }));
      announceChunks(env.run, output, session.chunks.length);
      return { outputs: [output], next: followPort(node) };
    }
  }
}
