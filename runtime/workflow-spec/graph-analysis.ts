/**
 * Small graph algorithms over node ids and directed edges: reachability and strongly connected components.
 * Pure functions, shared by the validator and the compiler.
 */

/** Adjacency lists from `[source, target]` pairs, keeping edge order. */
export function adjacency(nodeIds: readonly string[], edges: readonly (readonly [string, string])[]): Map<string, string[]> {
  const out = new Map<string, string[]>(nodeIds.map((id) => [id, []]));
  for (const [source, target] of edges) out.get(source)?.push(target);
  return out;
}

/** Ids reachable from `starts` (the starts included), breadth-first. */
export function reachableFrom(starts: readonly string[], next: ReadonlyMap<string, readonly string[]>): Set<string> {
  const seen = new Set<string>(starts);
  const queue = [...starts];
  while (queue.length > 0) {
    const id = queue.shift() as string;
    for (const target of next.get(id) ?? []) {
      if (seen.has(target)) continue;
      seen.add(target);
      queue.push(target);
    }
  }
  return seen;
}

/**
 * The cycles of a graph: strongly connected components with more than one node or a self-loop (Tarjan's
 * algorithm, iterative so deep graphs do not overflow the stack). Components list their nodes in `nodeIds` order.
 */
export function cyclicComponents(nodeIds: readonly string[], next: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  let counter = 0;

  for (const root of nodeIds) {
    if (index.has(root)) continue;
    const work: { id: string; child: number }[] = [{ id: root, child: 0 }];
    index.set(root, counter);
    low.set(root, counter);
    counter += 1;
    stack.push(root);
    onStack.add(root);
    while (work.length > 0) {
      const frame = work[work.length - 1] as { id: string; child: number };
      const targets = next.get(frame.id) ?? [];
      if (frame.child < targets.length) {
        const target = targets[frame.child] as string;
        frame.child += 1;
        if (!index.has(target)) {
          index.set(target, counter);
          low.set(target, counter);
          counter += 1;
          stack.push(target);
          onStack.add(target);
          work.push({ id: target, child: 0 });
        } else if (onStack.has(target)) {
          low.set(frame.id, Math.min(low.get(frame.id) as number, index.get(target) as number));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.id, Math.min(low.get(parent.id) as number, low.get(frame.id) as number));
      if (low.get(frame.id) !== index.get(frame.id)) continue;
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop() as string;
        onStack.delete(member);
        component.push(member);
      } while (member !== frame.id);
      const selfLoop = (next.get(frame.id) ?? []).includes(frame.id);
      if (component.length > 1 || selfLoop) components.push(component);
    }
  }
  const order = new Map(nodeIds.map((id, position) => [id, position]));
  for (const component of components) component.sort((a, b) => (order.get(a) ?? 0) - (order.get(b) ?? 0));
  return components;
}
