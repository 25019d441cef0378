/**
 * How many leading chunks two sessions share, by object identity. The runtime's sessions share chunk objects
 * structurally (a fork, merge or derivation reuses its parent's frozen chunks), so identity proves equal content
 * without comparing payloads; a chunk that was copied merely stops the sharing early (more rows, never wrong ones).
 */

/** The length of the common prefix of `left` and `right` (same objects, in the same order), at most `limit`. */
export function sharedPrefixLength(left: Iterable<unknown>, right: Iterable<unknown>, limit = Number.POSITIVE_INFINITY): number {
  const other = right[Symbol.iterator]();
  let count = 0;
  for (const item of left) {
    if (count >= limit) break;
    const next = other.next();
    if (next.done === true || next.value !== item) break;
    count += 1;
  }
  return count;
}
