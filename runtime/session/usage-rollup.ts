/**
 * What token usage means, in one place (docs: runtime/session/README.md "Token usage").
 *
 * - **own**: the usage of the chunks a session added itself (model calls it made), not the chunks it took from
 *   its parents when it was created. A fork or a merge calls no model: its own usage is null.
 * - **cumulative**: own usage of the session and of every distinct ancestor, each counted once — what it cost to
 *   produce this session. Two branches that merge count their common ancestors once.
 * - **subtree**: own usage of the session and of every distinct descendant, each counted once — what this branch
 *   went on to spend.
 * - **total** of a set of sessions (a run): the sum of their own usage; every model call is counted once.
 *
 * The `usage` field of a runtime `Session` (and the reference's `cumulative_usage` in files) keeps the reference
 * implementation's meaning for interoperability: chunks appended to that value, plus its parents' sum for a merge.
 */
import { addUsage, type Usage } from "./usage";

/** A session as the rollup needs it: its id, its parents and its own usage. */
export interface UsageNode {
  readonly id: string;
  readonly parentIds: readonly string[];
  readonly ownUsage: Usage | null;
}

/** Sums usages (null when none is reported). */
export function sumUsage(usages: Iterable<Usage | null | undefined>): Usage | null {
  let total: Usage | null = null;
  for (const usage of usages) total = addUsage(total, usage);
  return total;
}

/** Own usage of chunks from index `inheritedCount` on: the chunks a session added itself. */
export function ownUsageOfChunks(chunks: Iterable<{ meta: { usage?: Usage | undefined } }>, inheritedCount: number): Usage | null {
  let total: Usage | null = null;
  let index = 0;
  for (const chunk of chunks) {
    if (index >= inheritedCount) total = addUsage(total, chunk.meta.usage);
    index += 1;
  }
  return total;
}

/** The total of a set of sessions: the sum of their own usage. */
export function totalUsage(nodes: Iterable<UsageNode>): Usage | null {
  let total: Usage | null = null;
  for (const node of nodes) total = addUsage(total, node.ownUsage);
  return total;
}

/**
 * Cumulative usage of every node: its own plus every distinct ancestor's (parents outside `nodes` contribute
 * nothing). A node with one parent adds its own to the parent's cumulative; a node with several parents sums the
 * union of their ancestries, so a shared ancestor counts once. Nodes are expected parents first
 * (`topologicalOrder`); a node whose parent comes later is summed from its ancestry as well.
 */
export function cumulativeUsages(nodes: readonly UsageNode[]): Map<string, Usage | null> {
  const byId = new Map(nodes.map((node) => [node.id, node]));
  const cumulative = new Map<string, Usage | null>();
  for (const node of nodes) {
    const parents = [...new Set(node.parentIds)].filter((id) => byId.has(id));
    const only = parents.length === 1 ? (parents[0] as string) : undefined;
    if (parents.length === 0) cumulative.set(node.id, node.ownUsage);
    else if (only !== undefined && cumulative.has(only)) cumulative.set(node.id, addUsage(cumulative.get(only), node.ownUsage));
    else cumulative.set(node.id, sumOver(closure(node.id, byId, (entry) => entry.parentIds), byId));
  }
  return cumulative;
}

/** Subtree usage of one node: its own plus every distinct descendant's, each once. */
export function subtreeUsage(id: string, nodes: readonly UsageNode[]): Usage | null {
  const byId = new Map(nodes.map((node) => [node.id, node]));
  if (!byId.has(id)) return null;
  const children = new Map<string, string[]>();
  for (const node of nodes) {
    for (const parent of new Set(node.parentIds)) {
      const list = children.get(parent);
      if (list === undefined) children.set(parent, [node.id]);
      else list.push(node.id);
    }
  }
  return sumOver(closure(id, byId, (node) => children.get(node.id) ?? []), byId);
}

/** `id` and every node reachable from it through `next`, each once (iterative: deep lineages do not overflow). */
function closure(id: string, byId: ReadonlyMap<string, UsageNode>, next: (node: UsageNode) => readonly string[]): Set<string> {
  const seen = new Set<string>([id]);
  const stack = [id];
  for (let current = stack.pop(); current !== undefined; current = stack.pop()) {
    const node = byId.get(current);
    if (node === undefined) continue;
    for (const neighbour of next(node)) {
      if (seen.has(neighbour) || !byId.has(neighbour)) continue;
      seen.add(neighbour);
      stack.push(neighbour);
    }
  }
  return seen;
}

function sumOver(ids: Iterable<string>, byId: ReadonlyMap<string, UsageNode>): Usage | null {
  let total: Usage | null = null;
  for (const id of ids) total = addUsage(total, byId.get(id)?.ownUsage);
  return total;
}

/**
 * How many leading chunks of a session were taken from its parents: the parents' chunks are consumed in parent
 * order, each as far as it matches (a fork takes its parent's chunks, a merge its left then its right parent's,
 * an agent loop its input's). `same` compares two chunks (default: the same object, as the runtime shares them).
 */
export function inheritedChunkCount<C>(chunks: readonly C[], parents: ReadonlyArray<readonly C[] | undefined>, same: (left: C, right: C) => boolean = Object.is): number {
  let taken = 0;
  for (const parent of parents) {
    if (parent === undefined) continue;
    let matched = 0;
    while (matched < parent.length && taken + matched < chunks.length && same(chunks[taken + matched] as C, parent[matched] as C)) matched += 1;
    taken += matched;
  }
  return taken;
}
