/**
 * Usage of a session, of its branch subtree and of the run, from each session's own usage (the tokens its own
 * chunks reported), so a merge (which has no own usage) never counts its parents twice and a fork never copies
 * them. Pure; computed on demand for the selected session (a run can hold thousands).
 */
import { addUsage, type Usage } from "../../runtime/session/usage";
import type { GraphSessionData } from "../run-state/live-graph";

/** Usage figures for one session. */
export interface SessionUsageView {
  own: Usage | null;
  /** Own usage of the session and every distinct ancestor. */
  cumulative: Usage | null;
  /** Own usage of the session and every distinct descendant (the branch it starts). */
  subtree: Usage | null;
  run: Usage | null;
}

function walk(start: string, next: (id: string) => readonly string[]): Set<string> {
  const seen = new Set<string>([start]);
  const stack = [start];
  for (let current = stack.pop(); current !== undefined; current = stack.pop()) {
    for (const id of next(current)) {
      if (seen.has(id)) continue;
      seen.add(id);
      stack.push(id);
    }
  }
  return seen;
}

/** The usage views of `sessionId` in `sessions` (null when the session is unknown). */
export function sessionUsageView(sessions: readonly GraphSessionData[], sessionId: string): SessionUsageView | null {
  const byId = new Map(sessions.map((session) => [session.id, session]));
  const session = byId.get(sessionId);
  if (session === undefined) return null;
  const children = new Map<string, string[]>();
  for (const entry of sessions) {
    for (const parent of new Set(entry.lineage.parent_session_ids)) {
      const list = children.get(parent);
      if (list === undefined) children.set(parent, [entry.id]);
      else list.push(entry.id);
    }
  }
  const sum = (ids: Iterable<string>): Usage | null => {
    let total: Usage | null = null;
    for (const id of ids) total = addUsage(total, byId.get(id)?.ownUsage);
    return total;
  };
  return {
    own: session.ownUsage,
    cumulative: sum(walk(sessionId, (id) => byId.get(id)?.lineage.parent_session_ids ?? [])),
    subtree: sum(walk(sessionId, (id) => children.get(id) ?? [])),
    run: sum(byId.keys()),
  };
}
