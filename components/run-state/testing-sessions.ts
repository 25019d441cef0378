/** Test helpers: graph sessions and run events as the API shapes them, built from a few fields. */
import type { GraphSessionData, RunEventData, SessionGraphData } from "./live-graph";

/** A session of the graph with the given id, parents and kind (everything else defaulted). */
export function graphSession(id: string, parents: string[] = [], kind = parents.length === 0 ? "leaf_user" : "op_session_loop", extra: Partial<GraphSessionData> = {}): GraphSessionData {
  return {
    id,
    nodeId: id.split("-")[0] ?? null,
    lineage: { parent_session_ids: parents, lineage_operator: kind, lineage_kind: kind as GraphSessionData["lineage"]["lineage_kind"], lineage_extras: [] },
    ownUsage: null,
    chunkCount: 1,
    inheritedChunkCount: 0,
    status: "ok",
    error: null,
    toolErrors: null,
    ...extra,
  };
}

/** A graph answer around `sessions`. */
export function graphOf(sessions: GraphSessionData[], eventSeq = 0): SessionGraphData {
  return {
    run: { id: "run_test" } as SessionGraphData["run"],
    sessions,
    totalUsage: null,
    eventSeq,
  };
}

/** A run event. */
export function runEvent(seq: number, type: string, payload: Record<string, unknown>, at = `2026-01-01T00:00:${String(seq).padStart(2, "0")}.000Z`): RunEventData {
  return { runId: "run_test", seq, type, payload, at };
}
