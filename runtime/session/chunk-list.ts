/**
 * A persistent (immutable) sequence with structural sharing: an AVL-balanced rope whose leaves are small
 * frozen arrays. Sharing a list is O(1) (it is a value), concatenation is O(log n), appending is O(log n),
 * indexing is O(log n) and iteration is O(n). No operation copies more than one leaf.
 *
 * Why a rope and not an array: a fork must not copy the parent's chunks, and a merge of two long sessions
 * must not copy either of them (SPEC §2).
 */

const LEAF_MAX = 32;

interface Leaf<T> {
  readonly leaf: true;
  readonly items: readonly T[];
  readonly size: number;
  readonly height: 0;
}

interface Branch<T> {
  readonly leaf: false;
  readonly left: Node<T>;
  readonly right: Node<T>;
  readonly size: number;
  readonly height: number;
}

type Node<T> = Leaf<T> | Branch<T>;

function leaf<T>(items: readonly T[]): Leaf<T> {
  return { leaf: true, items: Object.freeze(items.slice()) as readonly T[], size: items.length, height: 0 };
}

function branch<T>(left: Node<T>, right: Node<T>): Branch<T> {
  return {
    leaf: false,
    left,
    right,
    size: left.size + right.size,
    height: Math.max(left.height, right.height) + 1,
  };
}

/** Builds branch(l, r) when their heights differ by at most 2, restoring the AVL invariant by rotation. */
function balance<T>(l: Node<T>, r: Node<T>): Node<T> {
  if (l.height > r.height + 1 && !l.leaf) {
    if (l.left.height >= l.right.height) return branch(l.left, branch(l.right, r));
    const inner = l.right as Branch<T>;
    return branch(branch(l.left, inner.left), branch(inner.right, r));
  }
  if (r.height > l.height + 1 && !r.leaf) {
    if (r.right.height >= r.left.height) return branch(branch(l, r.left), r.right);
    const inner = r.left as Branch<T>;
    return branch(branch(l, inner.left), branch(inner.right, r.right));
  }
  return branch(l, r);
}

/** Joins two balanced trees in O(|h(l) - h(r)|). */
function join<T>(l: Node<T>, r: Node<T>): Node<T> {
  if (l.size === 0) return r;
  if (r.size === 0) return l;
  if (l.leaf && r.leaf && l.size + r.size <= LEAF_MAX) return leaf([...l.items, ...r.items]);
  if (Math.abs(l.height - r.height) <= 1) return branch(l, r);
  if (l.height > r.height) {
    const lb = l as Branch<T>;
    return balance(lb.left, join(lb.right, r));
  }
  const rb = r as Branch<T>;
  return balance(join(l, rb.left), rb.right);
}

function appendItem<T>(node: Node<T>, item: T): Node<T> {
  if (node.leaf) {
    if (node.size < LEAF_MAX) return leaf([...node.items, item]);
    return branch(node, leaf([item]));
  }
  return balance(node.left, appendItem(node.right, item));
}

function take<T>(node: Node<T>, count: number): Node<T> {
  if (count >= node.size) return node;
  if (count <= 0) return EMPTY_LEAF as Leaf<T>;
  if (node.leaf) return leaf(node.items.slice(0, count));
  if (count <= node.left.size) return take(node.left, count);
  return join(node.left, take(node.right, count - node.left.size));
}

function fromArray<T>(items: readonly T[], start: number, end: number): Node<T> {
  const count = end - start;
  if (count <= LEAF_MAX) return leaf(items.slice(start, end));
  // Split on a leaf boundary so leaves stay full and the tree stays balanced.
  const leaves = Math.ceil(count / LEAF_MAX);
  const mid = start + Math.ceil(leaves / 2) * LEAF_MAX;
  return branch(fromArray(items, start, mid), fromArray(items, mid, end));
}

const EMPTY_LEAF: Leaf<never> = { leaf: true, items: Object.freeze([]), size: 0, height: 0 };

/** An immutable, structurally shared list. */
export class ChunkList<T> implements Iterable<T> {
  private constructor(private readonly root: Node<T>) {}

  static empty<T>(): ChunkList<T> {
    return new ChunkList<T>(EMPTY_LEAF as Leaf<T>);
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
    let node: Node<T> = this.root;
    while (!node.leaf) {
      if (i < node.left.size) node = node.left;
      else {
        i -= node.left.size;
        node = node.right;
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

  *[Symbol.iterator](): Iterator<T> {
    const stack: Node<T>[] = [this.root];
    while (stack.length > 0) {
      const node = stack.pop() as Node<T>;
      if (node.leaf) yield* node.items;
      else stack.push(node.right, node.left);
    }
  }

  toArray(): T[] {
    const out: T[] = new Array(this.root.size);
    let k = 0;
    const stack: Node<T>[] = [this.root];
    while (stack.length > 0) {
      const node = stack.pop() as Node<T>;
      if (node.leaf) for (const item of node.items) out[k++] = item;
      else stack.push(node.right, node.left);
    }
    return out;
  }

  /** Elements in [start, end) as an array (for pagination). */
  slice(start: number, end = this.root.size): T[] {
    const from = Math.max(0, start);
    const to = Math.min(this.root.size, end);
    const out: T[] = [];
    for (let i = from; i < to; i++) out.push(this.at(i) as T);
    return out;
  }
}
