/**
 * What the lineage export needs to know about a session's line besides its fields, worked out once when the
 * Session is made (it is immutable) instead of for every line of every export: whether its ids can be copied
 * as they are, and its lineage's (operator, kind) pair as a small number. One small integer on the Session:
 *
 * - bit 0 (`OWN_ID_PLAIN`): the session's id is a "plain id": `PLAIN_ID_LENGTH` printable ASCII characters
 *   other than `"` and `\` (JSON writes it as it is). Every id `newSessionId` makes is one.
 * - bit 1 (`PARENT_IDS_PLAIN`): it has at most two parents and each parent id is a plain id.
 * - the bits above (`facts >>> PAIR_SHIFT`): the interned (operator, kind) pair, 1 up to `MAX_PAIRS`; 0 when
 *   the table is full (then a reader looks the names up itself).
 *
 * Why: the lineage export wrote each id by checking and copying its characters one by one (the line writer's
 * largest cost) and found its line's template by two string-keyed map lookups; with these facts it copies a
 * plain id without checking each character and picks the template by index (bench/README.md, 2026-12-05 07:00-08:40).
 */

/** The length of a session id made by `newSessionId` (a UUID). */
export const PLAIN_ID_LENGTH = 36;

export const OWN_ID_PLAIN = 1;
export const PARENT_IDS_PLAIN = 2;
export const IDS_PLAIN = OWN_ID_PLAIN | PARENT_IDS_PLAIN;
export const PAIR_SHIFT = 2;
/** Distinct (operator, kind) pairs interned at most (the rest get pair 0). */
export const MAX_PAIRS = 4095;

/** Whether JSON writes `id` as it is and it has `PLAIN_ID_LENGTH` characters. */
export function isPlainId(id: string): boolean {
  if (id.length !== PLAIN_ID_LENGTH) return false;
  for (let i = 0; i < PLAIN_ID_LENGTH; i++) {
    const code = id.charCodeAt(i);
    if (code < 0x20 || code > 0x7e || code === 0x22 || code === 0x5c) return false;
  }
  return true;
}

/** The PARENT_IDS_PLAIN bit for these parent ids. */
export function parentIdsBit(parents: readonly string[]): number {
  if (parents.length > 2) return 0;
  for (let i = 0; i < parents.length; i++) if (!isPlainId(parents[i] as string)) return 0;
  return PARENT_IDS_PLAIN;
}

const pairs = new Map<string, Map<string, number>>();
let pairCount = 0;

/** The (operator, kind) pair's number (1 up to MAX_PAIRS), interned for the process; 0 once MAX_PAIRS are taken. */
export function pairNumber(operator: string, kind: string): number {
  let byKind = pairs.get(operator);
  if (byKind === undefined) {
    if (pairCount >= MAX_PAIRS) return 0;
    byKind = new Map();
    pairs.set(operator, byKind);
  }
  let pair = byKind.get(kind);
  if (pair === undefined) {
    if (pairCount >= MAX_PAIRS) return 0;
    pair = ++pairCount;
    byKind.set(kind, pair);
  }
  return pair;
}

/** The facts of a session with this id plainness and lineage. */
export function lineFacts(ownIdPlain: boolean, parents: readonly string[], operator: string, kind: string): number {
  return (ownIdPlain ? OWN_ID_PLAIN : 0) | parentIdsBit(parents) | (pairNumber(operator, kind) << PAIR_SHIFT);
}
