/**
 * The run's errors as the header lists them (pure): the run's own failure (with the node it failed at), and every
 * session whose own chunks hold failed tool results (with the first failing chunk, so "Jump to failure" can
 * select it and show its evidence).
 */
import type { GraphSessionData } from "../run-state/live-graph";
import type { TimelineFailure } from "../run-state/timeline";

/** One error the page can jump to. */
export interface RunErrorEntry {
  key: string;
  title: string;
  message: string;
  /** The session to select (the failing one, or the last input of the failed step), if known. */
  sessionId: string | null;
  /** The failing chunk in that session, if known. */
  chunkIndex: number | null;
  nodeId: string | null;
}

/** The run's failure as stored on the run (`runs.get`). */
export interface StoredRunError {
  code: string;
  message: string;
  node_id?: unknown;
}

/** Errors in the order a person reads them: tool failures in graph order, then the run's failure. */
export function runErrors(sessions: readonly GraphSessionData[], runError: StoredRunError | null, failure: TimelineFailure | null): RunErrorEntry[] {
  const entries: RunErrorEntry[] = [];
  for (const session of sessions) {
    if (session.toolErrors === null && session.status !== "failed") continue;
    const count = session.toolErrors?.count ?? 0;
    entries.push({
      key: `session:${session.id}`,
      title: count > 0 ? `${count} failed tool call${count === 1 ? "" : "s"}` : "session failed",
      message: session.error ?? (session.nodeId === null ? "in a session" : `at node ${session.nodeId}`),
      sessionId: session.id,
      chunkIndex: session.toolErrors?.firstIndex ?? null,
      nodeId: session.nodeId,
    });
  }
  if (runError !== null) {
    const nodeId = typeof runError.node_id === "string" ? runError.node_id : (failure?.nodeId ?? null);
    const inputs = failure?.inputs ?? [];
    entries.push({
      key: "run",
      title: nodeId === null ? runError.code : `${runError.code} at node ${nodeId}`,
      message: runError.message,
      sessionId: inputs[inputs.length - 1] ?? null,
      chunkIndex: null,
      nodeId,
    });
  } else if (failure !== null) {
    entries.push({
      key: "run",
      title: failure.nodeId === null ? failure.code : `${failure.code} at node ${failure.nodeId}`,
      message: failure.message,
      sessionId: failure.inputs[failure.inputs.length - 1] ?? null,
      chunkIndex: null,
      nodeId: failure.nodeId,
    });
  }
  return entries;
}

/** Where "Jump to failure" goes: the first error that names a session. */
export function firstFailure(errors: readonly RunErrorEntry[]): RunErrorEntry | null {
  return errors.find((entry) => entry.sessionId !== null && entry.chunkIndex !== null) ?? errors.find((entry) => entry.sessionId !== null) ?? null;
}
