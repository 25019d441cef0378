/**
 * A persistent (immutable) sequence with structural sharing: an AVL-balanced rope whose leaves are arrays of up
 * to LEAF_MAX elements. Sharing a list is O(1) (it is a value), concatenation is O(log n), appending is O(log n),
 * indexing is O(log n) and iteration is O(n). No operation copies more than one leaf.
 *
 * Why a rope and not an array: a fork must not copy the parent's chunks, and a merge of two long sessions
 * must not copy either of them (SPEC §2).
 *
 * Reading is the hot path (every export, message build and page of chunks walks a list), so:
 * - every node is one class with the same fields (a leaf has `items`, a branch `left`/`right`), so the walks
 *   below see one hidden class and stay monomorphic;
 * - leaf arrays are plain, not frozen: they are made here and never handed out (reads copy), and V8 reads a
 *   frozen array's elements markedly slower (a full read of 20k chunks took about 1.7x as long);
 * - iteration walks leaf by leaf (`ChunkListIterator`, not a generator), and `forEach`/`toArray` run the same
 *   walk with an explicit stack of right subtrees, without an iterator result per element;
 * - leaves hold up to 128 elements, not 32: each step from one leaf to the next is a mispredicted branch that also
 *   drops the chunk loads then in flight, and a full read of 20k chunks took ~20 % less time with 4x fewer leaves.
 *
 * Appending does not copy the last leaf, so a bigger leaf costs an append nothing: a leaf's elements are
 * `items[0, size)` and its array may be longer. The first list to extend a leaf pushes onto the leaf's array (every
 * leaf sharing that array reads only its own `size` elements); a list that finds the array already extended
 * (`items.length !== size`, e.g. a fork appending after its parent did) copies its `size` elements first.
 */

const LEAF_MAX = 128;

/** A rope node: a leaf when `items` is non-null (its elements are `items[0, size)`), else a branch of `left` and `right`. */
class RopeNode<T> {
  constructor(
    readonly items: T[] | null,
    readonly left: RopeNode<T> | null,
    readonly right: RopeNode<T> | null,
    readonly size: number,
    readonly height: number,
  ) {}
}

type Leaf<T> = RopeNode<T> & { readonly items: T[] };
type Branch<T> = RopeNode<T> & { readonly items: null; readonly left: RopeNode<T>; readonly right: RopeNode<T> };

function isLeaf<T>(node: RopeNode<T>): node is Leaf<T> {
  return node.items !== null;
}

/** A leaf of `items`, an array made here (never a caller's: it may be pushed onto, see `extensible`). */
function leafOf<T>(items: T[]): Leaf<T> {
  return new RopeNode<T>(items, null, null, items.length, 0) as Leaf<T>;
}

/**
 * An array to push a leaf's next elements onto: the leaf's own array when no list has extended it yet (its length is
 * still the leaf's size; every leaf sharing it reads only its own prefix), else a copy of the leaf's elements.
 */
function extensible<T>(leaf: Leaf<T>): T[] {
  return leaf.items.length === leaf.size && leaf.size > 0 ? leaf.items : prefix(leaf);
}

/** A copy of the leaf's elements. */
function prefix<T>(leaf: Leaf<T>): T[] {
  return leaf.items.slice(0, leaf.size);
}

function branch<T>(left: RopeNode<T>, right: RopeNode<T>): Branch<T> {
  const height = left.height > right.height ? left.height : right.height;
  return new RopeNode<T>(null, left, right, left.size + right.size, height + 1) as Branch<T>;
}

/** Builds branch(l, r) when their heights differ by at most 2, restoring the AVL invariant by rotation. */
function balance<T>(l: RopeNode<T>, r: RopeNode<T>): RopeNode<T> {
  if (l.height > r.height + 1 && !isLeaf(l)) {
    const lb = l as Branch<T>;
    if (lb.left.height >= lb.right.height) return branch(lb.left, branch(lb.right, r));
    const inner = lb.right as Branch<T>;
    return branch(branch(lb.left, inner.left), branch(inner.right, r));
  }
  if (r.height > l.height + 1 && !isLeaf(r)) {
    const rb = r as Branch<T>;
    if (rb.right.height >= rb.left.height) return branch(branch(l, rb.left), rb.right);
    const inner = rb.left as Branch<T>;
    return branch(branch(l, inner.left), branch(inner.right, rb.right));
  }
  return branch(l, r);
}

/** Joins two balanced trees in O(|h(l) - h(r)|). */
function join<T>(l: RopeNode<T>, r: RopeNode<T>): RopeNode<T> {
  if (l.size === 0) return r;
  if (r.size === 0) return l;
  if (isLeaf(l) && isLeaf(r) && l.size + r.size <= LEAF_MAX) {
    const items = prefix(l);
    for (let i = 0; i < r.size; i++) items.push(r.items[i] as T);
    return leafOf(items);
  }
  if (Math.abs(l.height - r.height) <= 1) return branch(l, r);
  if (l.height > r.height) {
    const lb = l as Branch<T>;
    return balance(lb.left, join(lb.right, r));
  }
  const rb = r as Branch<T>;
  return balance(join(l, rb.left), rb.right);
}

function appendItem<T>(node: RopeNode<T>, item: T): RopeNode<T> {
  if (isLeaf(node)) {
    if (node.size < LEAF_MAX) {
      const items = extensible(node);
      items.push(item);
      return leafOf(items);
    }
    return branch(node, leafOf([item]));
  }
  const b = node as Branch<T>;
  return balance(b.left, appendItem(b.right, item));
}

function take<T>(node: RopeNode<T>, count: number): RopeNode<T> {
  if (count >= node.size) return node;
  if (count <= 0) return EMPTY_LEAF;
  if (isLeaf(node)) return leafOf(node.items.slice(0, count));
  const b = node as Branch<T>;
  if (count <= b.left.size) return take(b.left, count);
  return join(b.left, take(b.right, count - b.left.size));
}

function fromArray<T>(items: readonly T[], start: number, end: number): RopeNode<T> {
  const count = end - start;
  if (count <= LEAF_MAX) return leafOf(items.slice(start, end));
  // Split on a leaf boundary so leaves stay full and the tree stays balanced.
  const leaves = Math.ceil(count / LEAF_MAX);
  const mid = start + Math.ceil(leaves / 2) * LEAF_MAX;
  return branch(fromArray(items, start, mid), fromArray(items, mid, end));
}

const EMPTY_LEAF: Leaf<never> = leafOf<never>([]);

/**
 * Descends the left spine of `node` to its first leaf, pushing the right subtree of every branch passed on
 * `pending` (so popping `pending` yields the following subtrees in order).
 */
function firstLeaf<T>(node: RopeNode<T>, pending: RopeNode<T>[]): Leaf<T> {
  let current = node;
  while (current.items === null) {
    pending.push(current.right as RopeNode<T>);
    current = current.left as RopeNode<T>;
  }
  return current as Leaf<T>;
}

/** The non-empty leaves of the tree under `root`, in order (one walk with an explicit stack). */
function leavesOf<T>(root: RopeNode<T>): Leaf<T>[] {
  const leaves: Leaf<T>[] = [];
  const pending: RopeNode<T>[] = [root];
  for (let node = pending.pop(); node !== undefined; node = pending.pop()) {
    const leaf = firstLeaf(node, pending);
    if (leaf.size > 0) leaves.push(leaf);
  }
  return leaves;
}

const NO_LEAVES: readonly Leaf<never>[] = [];

/**
 * In-order iterator over a rope. Its leaves are collected when it is made (one array of about n / LEAF_MAX entries,
 * none for a one-leaf list), so going on to the next leaf is one load, not a pop and a descent. The iterator is its
 * own result object, updated on every `next()` (the protocol allows any object; `for...of`, spread and `Array.from`
 * read `value` at once): a fresh `{ value, done }` per chunk made a full read cost a third more, and a separate
 * reused result object one more load and store per chunk. Its state is in `#` fields: what a caller holds gives no
 * way to the leaf arrays the list shares.
 */
class ChunkListIterator<T> implements IterableIterator<T> {
  value: T | undefined = undefined;
  done = false;
  readonly #leaves: readonly Leaf<T>[];
  #nextLeaf = 1;
  #items: readonly T[];
  #end: number;
  #index = 0;

  constructor(root: RopeNode<T>) {
    const first = root.items !== null ? (root as Leaf<T>) : null;
    this.#leaves = first !== null ? NO_LEAVES : leavesOf(root);
    const leaf = first ?? this.#leaves[0] ?? EMPTY_LEAF;
    this.#items = leaf.items;
    this.#end = leaf.size;
  }

  next(): IteratorResult<T> {
    const index = this.#index;
    if (index < this.#end) {
      this.#index = index + 1;
      this.value = this.#items[index];
      return this as IteratorResult<T>;
    }
    return this.#nextLeafResult();
  }

  #nextLeafResult(): IteratorResult<T> {
    const next = this.#nextLeaf;
    if (next < this.#leaves.length) {
      const leaf = this.#leaves[next] as Leaf<T>;
      this.#nextLeaf = next + 1;
      this.#items = leaf.items;
      this.#end = leaf.size;
      this.#index = 1;
      this.value = leaf.items[0];
    } else {
      this.value = undefined;
      this.done = true;
    }
    return this as IteratorResult<T>;
  }

  [Symbol.iterator](): IterableIterator<T> {
    return this;
  }
}

/** An immutable, structurally shared list. */
export class ChunkList<T> implements Iterable<T> {
  private constructor(private readonly root: RopeNode<T>) {}

  static empty<T>(): ChunkList<T> {
    return new ChunkList<T>(EMPTY_LEAF);
  }

  static of<T>(...items: T[]): ChunkList<T> {
    return ChunkList.from(items);
  }

  static from<T>(items: Iterable<T>): ChunkList<T> {
    const array = Array.isArray(items) ? (items as T[]) : [...items];
    return new ChunkList(fromArray(array, 0, array.length));
  }

  get length(): number {
    return this.root.size;
  }

  /** Height of the underlying tree (for tests of the balance invariant). */
  get depth(): number {
    return this.root.height;
  }

  /** Element at `index` (negative counts from the end), or undefined. O(log n). */
  at(index: number): T | undefined {
    let i = index < 0 ? this.root.size + index : index;
    if (i < 0 || i >= this.root.size) return undefined;
    let node = this.root;
    while (node.items === null) {
      const left = node.left as RopeNode<T>;
      if (i < left.size) node = left;
      else {
        i -= left.size;
        node = node.right as RopeNode<T>;
      }
    }
    return node.items[i];
  }

  last(): T | undefined {
    return this.at(-1);
  }

  append(...items: T[]): ChunkList<T> {
    if (items.length === 0) return this;
    if (items.length === 1) return new ChunkList(appendItem(this.root, items[0] as T));
    return new ChunkList(join(this.root, fromArray(items, 0, items.length)));
  }

  concat(other: ChunkList<T>): ChunkList<T> {
    return new ChunkList(join(this.root, other.root));
  }

  /** The first `count` elements. O(log² n), shares everything but one leaf. */
  take(count: number): ChunkList<T> {
    return new ChunkList(take(this.root, count));
  }

  [Symbol.iterator](): IterableIterator<T> {
    return new ChunkListIterator(this.root);
  }

  /** Calls `visit(item, index)` for every element in order: the fastest full read (no iterator results). */
  forEach(visit: (item: T, index: number) => void): void {
    const pending: RopeNode<T>[] = [];
    let leaf = firstLeaf(this.root, pending);
    let index = 0;
    for (;;) {
      const items = leaf.items;
      for (let i = 0; i < leaf.size; i++) visit(items[i] as T, index++);
      const next = pending.pop();
      if (next === undefined) return;
      leaf = firstLeaf(next, pending);
    }
  }

  toArray(): T[] {
    const out: T[] = new Array<T>(this.root.size);
    const pending: RopeNode<T>[] = [];
    let leaf = firstLeaf(this.root, pending);
    let k = 0;
    for (;;) {
      const items = leaf.items;
      for (let i = 0; i < leaf.size; i++) out[k++] = items[i] as T;
      const next = pending.pop();
      if (next === undefined) return out;
      leaf = firstLeaf(next, pending);
    }
  }

  /** Elements in [start, end) as an array (for pagination). O(log n + end - start). */
  slice(start: number, end = this.root.size): T[] {
    const from = Math.max(0, start);
    const to = Math.min(this.root.size, end);
    const out: T[] = [];
    if (from >= to) return out;
    // Descend to the leaf holding `from`, keeping the right subtrees still to visit, then walk on.
    const pending: RopeNode<T>[] = [];
    let node = this.root;
    let offset = from;
    while (node.items === null) {
      const left = node.left as RopeNode<T>;
      if (offset < left.size) {
        pending.push(node.right as RopeNode<T>);
        node = left;
      } else {
        offset -= left.size;
        node = node.right as RopeNode<T>;
      }
    }
    let leaf = node as Leaf<T>;
    let remaining = to - from;
    for (;;) {
      const items = leaf.items;
      for (let i = offset; i < leaf.size && remaining > 0; i++, remaining--) out.push(items[i] as T);
      const next = pending.pop();
      if (remaining === 0 || next === undefined) return out;
      leaf = firstLeaf(next, pending);
      offset = 0;
    }
  }
}
