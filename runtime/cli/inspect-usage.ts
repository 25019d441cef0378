/**
 * Own and cumulative usage for `rath inspect`, in the meaning of runtime/session/usage-rollup.ts, across every
 * file given (a session's parents may be in another file). What a file records (`recorded_usage`: a persisted
 * session's usage, a lineage line's `cumulative_usage`) keeps the reference's meaning: the session's own spend,
 * except that a merge records its parents' sum.
 */
import type { Chunk } from "../session/chunk";
import type { Usage } from "../session/usage";
import { cumulativeUsages, inheritedChunkCount, ownUsageOfChunks } from "../session/usage-rollup";

/** A session as read from a file, before usage is rolled up. */
export interface InspectedSession {
  id: string;
  parent_session_ids: readonly string[];
  lineage_kind: string;
  recorded_usage: Usage | null;
  /** The session's chunks (null for lineage lines). */
  chunks: readonly Chunk[] | null;
}

/** Own and cumulative usage of one inspected session. */
export interface RolledUpUsage {
  own_usage: Usage | null;
  /** Own usage plus every distinct ancestor's among the inspected sessions. */
  cumulative_usage: Usage | null;
  /** False when an ancestor is not among the files given (the cumulative usage is then a lower bound). */
  ancestors_complete: boolean;
}

function subtract(total: Usage | null, parts: ReadonlyArray<Usage | null>): Usage | null {
  if (total === null) return null;
  const minus = (key: keyof Usage) => Math.max(0, total[key] - parts.reduce((sum, part) => sum + (part?.[key] ?? 0), 0));
  const rest = { prompt_tokens: minus("prompt_tokens"), completion_tokens: minus("completion_tokens"), total_tokens: minus("total_tokens") };
  return rest.total_tokens === 0 && rest.prompt_tokens === 0 && rest.completion_tokens === 0 ? null : rest;
}

function sameChunk(left: Chunk, right: Chunk): boolean {
  return left === right || JSON.stringify(left) === JSON.stringify(right);
}

/**
 * Own usage: from the chunks the session added after those it took from its parents, when its chunks and all its
 * parents' are known; otherwise from what the file records (a merge: minus its parents' records).
 */
function ownUsage(session: InspectedSession, byId: ReadonlyMap<string, InspectedSession>): Usage | null {
  const parents = session.parent_session_ids.map((id) => byId.get(id));
  const allParents = parents.every((parent) => parent !== undefined);
  if (session.chunks !== null && allParents && parents.every((parent) => parent?.chunks !== null)) {
    const inherited =
      parents.length === 0 ? 0 : inheritedChunkCount(session.chunks, parents.map((parent) => parent?.chunks ?? undefined), sameChunk);
    return ownUsageOfChunks(session.chunks, inherited);
  }
  if (session.lineage_kind !== "op_merge") return session.recorded_usage;
  return allParents ? subtract(session.recorded_usage, parents.map((parent) => parent?.recorded_usage ?? null)) : null;
}

/** Rolls usage up over `sessions` (the first session of an id wins where one appears in several files). */
export function rollUpInspectUsage(sessions: readonly InspectedSession[]): RolledUpUsage[] {
  const byId = new Map<string, InspectedSession>();
  for (const session of sessions) {
    const known = byId.get(session.id);
    if (known === undefined || (known.chunks === null && session.chunks !== null)) byId.set(session.id, session);
  }
  const own = new Map([...byId.values()].map((session) => [session.id, ownUsage(session, byId)]));
  const nodes = [...byId.values()].map((session) => ({ id: session.id, parentIds: session.parent_session_ids, ownUsage: own.get(session.id) ?? null }));
  const cumulative = cumulativeUsages(nodes);
  const complete = new Map<string, boolean>();
  const isComplete = (id: string): boolean => {
    const known = complete.get(id);
    if (known !== undefined) return known;
    // Iterative walk up the ancestry; a missing parent anywhere makes it incomplete.
    const seen = new Set<string>([id]);
    const stack = [id];
    let result = true;
    for (let current = stack.pop(); current !== undefined && result; current = stack.pop()) {
      for (const parent of byId.get(current)?.parent_session_ids ?? []) {
        if (!byId.has(parent)) result = false;
        else if (!seen.has(parent)) {
          seen.add(parent);
          stack.push(parent);
        }
      }
    }
    complete.set(id, result);
    return result;
  };
  return sessions.map((session) => ({
    own_usage: own.get(session.id) ?? null,
    cumulative_usage: cumulative.get(session.id) ?? null,
    ancestors_complete: isComplete(session.id),
  }));
}
