/**
 * Finds the run graph's long linear stretches, the parts the graph collapses into one expandable node. Pure, no
 * React, linear in the size of the graph.
 *
 * A stretch is a spine of sessions where each one leads to the next and nothing else enters or leaves in between:
 * - a plain link: the session has one child, and that child has this session as its only parent;
 * - with `absorbForks`, also a closed fork/merge: the session forks into branches that are themselves plain
 *   chains, and every branch ends in the same merge, which has exactly those branches as parents. The branches'
 *   sessions belong to the stretch; the merge is the spine's next session.
 * A spine of at least `minSpine` sessions makes a stretch (branch sessions do not count towards it).
 */

/** The graph as the search needs it: ids in order (parents first) and the drawn edges, both ways. */
export interface StretchGraph {
  ids: readonly string[];
  parentsOf: (id: string) => readonly string[];
  childrenOf: (id: string) => readonly string[];
}

/** Options of `linearStretches`. */
export interface StretchOptions {
  /** Spines shorter than this are left alone (at least 2). */
  minSpine: number;
  /** Whether closed fork/merge diamonds join a stretch (large graphs). */
  absorbForks: boolean;
  /** Branches longer than this stop a diamond from joining (default 32). */
  maxBranchLength?: number;
  /** Diamonds with more branches than this are left alone (default 8). */
  maxBranches?: number;
}

/** One stretch: its spine, every member session in order (spine and branches), and the diamonds it absorbed. */
export interface LinearStretch {
  spine: string[];
  members: string[];
  forks: number;
}

interface Step {
  next: string;
  branches: string[];
}

function plainNext(graph: StretchGraph, id: string): string | null {
  const children = graph.childrenOf(id);
  const only = children.length === 1 ? children[0] : undefined;
  return only !== undefined && graph.parentsOf(only).length === 1 ? only : null;
}

/** The merge every branch of a fork at `id` ends in, with the branches' sessions; null when not a closed diamond. */
function diamondNext(graph: StretchGraph, id: string, maxBranchLength: number, maxBranches: number): Step | null {
  const children = graph.childrenOf(id);
  if (children.length < 2 || children.length > maxBranches) return null;
  let merge: string | null = null;
  const ends = new Set<string>();
  const branches: string[] = [];
  for (const start of children) {
    if (graph.parentsOf(start).length !== 1) return null;
    let end = start;
    branches.push(start);
    for (let next = plainNext(graph, end); next !== null; next = plainNext(graph, end)) {
      if (branches.length > children.length * maxBranchLength) return null;
      end = next;
      branches.push(next);
    }
    const after = graph.childrenOf(end);
    const target = after.length === 1 ? after[0] : undefined;
    if (target === undefined || (merge !== null && target !== merge)) return null;
    merge = target;
    ends.add(end);
  }
  if (merge === null) return null;
  const mergeParents = graph.parentsOf(merge);
  if (mergeParents.length !== ends.size || !mergeParents.every((parent) => ends.has(parent))) return null;
  return { next: merge, branches };
}

/** The linear stretches of `graph`, in the order of their first session. */
export function linearStretches(graph: StretchGraph, options: StretchOptions): LinearStretch[] {
  const minSpine = Math.max(2, options.minSpine);
  const maxBranchLength = options.maxBranchLength ?? 32;
  const maxBranches = options.maxBranches ?? 8;
  const steps = new Map<string, Step>();
  const reached = new Set<string>();
  for (const id of graph.ids) {
    const plain = plainNext(graph, id);
    const step = plain !== null ? { next: plain, branches: [] } : options.absorbForks ? diamondNext(graph, id, maxBranchLength, maxBranches) : null;
    if (step === null) continue;
    steps.set(id, step);
    reached.add(step.next);
  }
  // Parents come first, so a stretch is found before the branch sessions it absorbs; those start no stretch.
  const claimed = new Set<string>();
  const stretches: LinearStretch[] = [];
  for (const id of graph.ids) {
    if (reached.has(id) || claimed.has(id) || !steps.has(id)) continue;
    const spine = [id];
    const members = [id];
    let forks = 0;
    for (let step = steps.get(id); step !== undefined; step = steps.get(step.next)) {
      if (step.branches.length > 0) forks += 1;
      members.push(...step.branches, step.next);
      spine.push(step.next);
    }
    if (spine.length < minSpine) continue;
    for (const member of members) claimed.add(member);
    stretches.push({ spine, members, forks });
  }
  return stretches;
}
