import { describe, expect, it } from "vitest";
import { Session } from "../../runtime/session/session";
import { sessionMeta } from "./execution-state";

/** The definition sessionMeta had before it was built from the session's fields: its snapshot minus chunks and handle. */
function metaFromSnapshot(session: Session): unknown {
  const { chunks, sandbox_handle_id: _handle, ...rest } = session.toSnapshot();
  return { ...rest, chunkCount: chunks.length };
}

function sessions(): Session[] {
  const root = Session.create("user", "hello", { producer: "input" });
  const system = Session.create("system", "be brief", { producer: "agent" });
  const loop = Session.derive({ chunks: root.chunks, parents: [root.id, system.id], kind: "op_session_loop", operator: "run_session_loop", placementFrom: root });
  const grown = loop.append(...system.chunks.toArray(), ...root.chunks.toArray());
  const snapshot = grown.toSnapshot();
  const restored = Session.fromSnapshot({
    ...snapshot,
    usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 },
    pending: ["next-node", "other"],
    provider: "scripted",
    lineage: { ...snapshot.lineage, lineage_extras: [["source", "test"], ["count", 2]] },
  });
  return [root, system, loop, grown, restored, restored.fork(), restored.detach(), Session.create("empty"), root.merge(system)];
}

describe("sessionMeta", () => {
  it("is the session's snapshot without chunks and handle, with its chunk count: same value, same JSON text", () => {
    for (const session of sessions()) {
      const meta = sessionMeta(session);
      expect(meta).toEqual(metaFromSnapshot(session));
      expect(JSON.stringify(meta)).toBe(JSON.stringify(metaFromSnapshot(session)));
    }
  });

  it("shares no array with the session", () => {
    const session = sessions()[4] as Session;
    const meta = sessionMeta(session);
    expect(meta.lineage.parent_session_ids).not.toBe(session.lineage.parent_session_ids);
    expect(meta.lineage.lineage_extras).not.toBe(session.lineage.lineage_extras);
    expect(meta.pending).not.toBe(session.pending);
  });
});
