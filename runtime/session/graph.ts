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

/**
 * The nodes in topological order, parents before children, and otherwise in their given order (stable: a
 * node moves later only when one of its parents comes after it). Parents that are not among `nodes` are
 * ignored; a repeated id is listed once, at its first position; nodes on a cycle (which a valid lineage never
 * has) keep their relative order at the end.
 */
export function topologicalOrder<N extends LineageNode>(nodes: readonly N[]): N[] {
  const position = new Map<string, number>();
  nodes.forEach((node, index) => {
    if (!position.has(node.id)) position.set(node.id, index);
  });
  const waiting = new Array<number>(nodes.length).fill(0);
  const children: number[][] = nodes.map(() => []);
  nodes.forEach((node, index) => {
    if (position.get(node.id) !== index) return;
    for (const parent of new Set(parentsOf(node))) {
      const parentIndex = position.get(parent);
      if (parentIndex === undefined || parentIndex === index) continue;
      waiting[index] = (waiting[index] ?? 0) + 1;
      (children[parentIndex] as number[]).push(index);
    }
  });
  const ready = new MinHeap();
  nodes.forEach((node, index) => {
    if (position.get(node.id) === index && waiting[index] === 0) ready.push(index);
  });
  const out: N[] = [];
  const placed = new Array<boolean>(nodes.length).fill(false);
  for (let index = ready.pop(); index !== undefined; index = ready.pop()) {
    placed[index] = true;
    out.push(nodes[index] as N);
    for (const child of children[index] as number[]) {
      waiting[child] = (waiting[child] ?? 0) - 1;
      if (waiting[child] === 0) ready.push(child);
    }
  }
  nodes.forEach((node, index) => {
    if (!placed[index] && position.get(node.id) === index) out.push(node);
  });
  return out;
}

/** A binary min-heap of non-negative integers (input positions), for the stable topological order. */
class MinHeap {
  private readonly items: number[] = [];

  push(value: number): void {
    const items = this.items;
    items.push(value);
    let at = items.length - 1;
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if ((items[parent] as number) <= value) break;
      items[at] = items[parent] as number;
      at = parent;
    }
    items[at] = value;
  }

  pop(): number | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (items.length === 0 || last === undefined) return top;
    let at = 0;
    for (;;) {
      const left = 2 * at + 1;
      if (left >= items.length) break;
      const right = left + 1;
      const smaller = right < items.length && (items[right] as number) < (items[left] as number) ? right : left;
      if ((items[smaller] as number) >= last) break;
      items[at] = items[smaller] as number;
      at = smaller;
    }
    items[at] = last;
    return top;
  }
}
