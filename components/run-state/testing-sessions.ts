/** Test helpers: graph sessions and run events as the API shapes them, built from a few fields. */
import type { GraphSessionData, RunEventData, SessionGraphData } from "./live-graph";

/** A session of the graph with the given id, parents and kind (everything else defaulted). */
export function graphSession(id: string, parents: string[] = [], kind = parents.length === 0 ? "leaf_user" : "op_session_loop", extra: Partial<GraphSessionData> = {}): GraphSessionData {
  return {
    id,
    runId: "run_test",
    nodeId: id.split("-")[0] ?? null,
    lineage: { parent_session_ids: parents, lineage_operator: kind, lineage_kind: kind as GraphSessionData["lineage"]["lineage_kind"], lineage_extras: [] },
    placement: { backend: "local", spec: null },
    ownUsage: null,
    chunkCount: 1,
    inheritedChunkCount: 0,
    base: null,
    status: "ok",
    error: null,
    createdAt: "2026-01-01T00:00:00.000Z",
    cumulativeUsage: null,
    toolErrors: null,
    ...extra,
  };
}

/** A graph answer around `sessions`. */
export function graphOf(sessions: GraphSessionData[], eventSeq = 0): SessionGraphData {
  return {
    run: { id: "run_test" } as SessionGraphData["run"],
    sessions,
    edges: sessions.flatMap((session) => session.lineage.parent_session_ids.map((parentId, position) => ({ parentId, childId: session.id, position }))),
    totalUsage: null,
    eventSeq,
  };
}

/** A run event. */
export function runEvent(seq: number, type: string, payload: Record<string, unknown>, at = `2026-01-01T00:00:${String(seq).padStart(2, "0")}.000Z`): RunEventData {
  return { runId: "run_test", seq, type, payload, at };
}
