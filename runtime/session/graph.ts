import { RathError } from "../errors";

/** Anything with an id and ordered parent ids: sessions, snapshots, lineage export lines. */
export interface LineageNode {
  readonly id: string;
  readonly lineage?: { readonly parent_session_ids: readonly string[] };
  readonly parent_session_ids?: readonly string[];
}

export type SessionEdge = readonly [parent: string, child: string];

function parentsOf(node: LineageNode): readonly string[] {
  return node.lineage?.parent_session_ids ?? node.parent_session_ids ?? [];
}

/** Indexes nodes by id. Later nodes with the same id replace earlier ones (later snapshots). */
export function indexById<N extends LineageNode>(nodes: Iterable<N>): Map<string, N> {
  const index = new Map<string, N>();
  for (const node of nodes) index.set(node.id, node);
  return index;
}

/** Ancestor ids of `id`, breadth-first, nearest first, each once. Parents missing from the index are listed too. */
export function ancestors(id: string, index: ReadonlyMap<string, LineageNode>): string[] {
  const out: string[] = [];
  const seen = new Set<string>([id]);
  const start = index.get(id);
  let frontier: readonly string[] = start ? parentsOf(start) : [];
  while (frontier.length > 0) {
    const next: string[] = [];
    for (const parent of frontier) {
      if (seen.has(parent)) continue;
      seen.add(parent);
      out.push(parent);
      const node = index.get(parent);
      if (node) next.push(...parentsOf(node));
    }
    frontier = next;
  }
  return out;
}

/** Descendant ids of `id`, breadth-first, nearest first, each once. */
export function descendants(id: string, nodes: Iterable<LineageNode>): string[] {
  const children = childrenIndex(nodes);
  const out: string[] = [];
  const seen = new Set<string>([id]);
  let frontier = children.get(id) ?? [];
  while (frontier.length > 0) {
    const next: string[] = [];
    for (const child of frontier) {
      if (seen.has(child)) continue;
      seen.add(child);
      out.push(child);
      next.push(...(children.get(child) ?? []));
    }
    frontier = next;
  }
  return out;
}

function childrenIndex(nodes: Iterable<LineageNode>): Map<string, string[]> {
  const children = new Map<string, string[]>();
  for (const node of nodes) {
    for (const parent of parentsOf(node)) {
      const list = children.get(parent);
      if (list) list.push(node.id);
      else children.set(parent, [node.id]);
    }
  }
  return children;
}

/** Every `(parent, child)` edge, in node order then parent order. */
export function edges(nodes: Iterable<LineageNode>): SessionEdge[] {
  const out: SessionEdge[] = [];
  for (const node of nodes) for (const parent of parentsOf(node)) out.push([parent, node.id]);
  return out;
}

/**
 * Checks that every parent is present and that the graph has no cycle. Throws `not_found` naming the missing
 * parent, or `cycle_detected` naming a session on the cycle.
 */
export function validateAcyclic(nodes: Iterable<LineageNode>): void {
  const index = indexById(nodes);
  for (const node of index.values()) {
    for (const parent of parentsOf(node)) {
      if (!index.has(parent)) {
        throw new RathError("not_found", `session ${node.id} names parent ${parent}, which is not in the graph`, {
          details: { session_id: node.id, parent_id: parent },
        });
      }
    }
  }
  // Iterative three-colour DFS so deep lineages cannot overflow the stack.
  const state = new Map<string, 1 | 2>();
  for (const root of index.keys()) {
    if (state.has(root)) continue;
    const stack: Array<{ id: string; next: number }> = [{ id: root, next: 0 }];
    state.set(root, 1);
    while (stack.length > 0) {
      const frame = stack[stack.length - 1] as { id: string; next: number };
      const parents = parentsOf(index.get(frame.id) as LineageNode);
      if (frame.next >= parents.length) {
        state.set(frame.id, 2);
        stack.pop();
        continue;
      }
      const parent = parents[frame.next++] as string;
      const seen = state.get(parent);
      if (seen === 1) {
        throw new RathError("cycle_detected", `lineage cycle through session ${parent}`, { details: { session_id: parent } });
      }
      if (seen === undefined) {
        state.set(parent, 1);
        stack.push({ id: parent, next: 0 });
      }
    }
  }
}
