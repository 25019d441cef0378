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

/** The sessions each usage view of one session sums: itself, with its ancestors, its branch subtree, the run. */
export interface SessionUsageSets {
  own: ReadonlySet<string>;
  cumulative: ReadonlySet<string>;
  subtree: ReadonlySet<string>;
  run: ReadonlySet<string>;
}

/** The session sets of `sessionId` in `sessions` (null when the session is unknown). */
export function sessionUsageSets(sessions: readonly GraphSessionData[], sessionId: string): SessionUsageSets | null {
  const byId = new Map(sessions.map((session) => [session.id, session]));
  if (!byId.has(sessionId)) return null;
  const children = new Map<string, string[]>();
  for (const entry of sessions) {
    for (const parent of new Set(entry.lineage.parent_session_ids)) {
      const list = children.get(parent);
      if (list === undefined) children.set(parent, [entry.id]);
      else list.push(entry.id);
    }
  }
  return {
    own: new Set([sessionId]),
    cumulative: walk(sessionId, (id) => (byId.get(id)?.lineage.parent_session_ids ?? []).filter((parent) => byId.has(parent))),
    subtree: walk(sessionId, (id) => children.get(id) ?? []),
    run: new Set(byId.keys()),
  };
}

/** The sum of the own usage of the sessions `ids` (null when none reported any). */
export function sumOwnUsage(ids: Iterable<string>, byId: ReadonlyMap<string, GraphSessionData>): Usage | null {
  let total: Usage | null = null;
  for (const id of ids) total = addUsage(total, byId.get(id)?.ownUsage);
  return total;
}

/** The usage views of `sessionId` in `sessions` (null when the session is unknown). */
export function sessionUsageView(sessions: readonly GraphSessionData[], sessionId: string): SessionUsageView | null {
  const sets = sessionUsageSets(sessions, sessionId);
  if (sets === null) return null;
  const byId = new Map(sessions.map((session) => [session.id, session]));
  return { own: byId.get(sessionId)?.ownUsage ?? null, cumulative: sumOwnUsage(sets.cumulative, byId), subtree: sumOwnUsage(sets.subtree, byId), run: sumOwnUsage(sets.run, byId) };
}
