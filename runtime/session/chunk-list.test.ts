import { describe, expect, it } from "vitest";
import { ChunkList } from "./chunk-list";

const range = (n: number, offset = 0) => Array.from({ length: n }, (_, i) => i + offset);

describe("ChunkList", () => {
  it("keeps order through appends, concats and takes", () => {
    let list = ChunkList.empty<number>();
    for (const i of range(1000)) list = list.append(i);
    expect(list.length).toBe(1000);
    expect(list.toArray()).toEqual(range(1000));
    const joined = list.concat(ChunkList.from(range(777, 1000)));
    expect(joined.toArray()).toEqual(range(1777));
    expect([...joined]).toEqual(range(1777));
    expect(joined.take(1001).toArray()).toEqual(range(1001));
    expect(joined.at(0)).toBe(0);
    expect(joined.at(1776)).toBe(1776);
    expect(joined.at(-1)).toBe(1776);
    expect(joined.at(1777)).toBeUndefined();
    expect(joined.slice(10, 14)).toEqual([10, 11, 12, 13]);
  });

  it("reads every shape of tree the same way through iteration, forEach, toArray and slice", () => {
    // Deterministic pseudo-random appends, concats on either side and takes, checked against a plain array.
    let seed = 7;
    const next = (limit: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % limit;
    };
    let list = ChunkList.empty<number>();
    let model: number[] = [];
    let counter = 0;
    for (let step = 0; step < 400; step++) {
      const choice = next(4);
      if (choice === 0) {
        list = list.append(counter);
        model.push(counter++);
      } else if (choice === 1 || choice === 2) {
        const piece = range(next(70), counter);
        counter += piece.length;
        list = choice === 1 ? list.concat(ChunkList.from(piece)) : ChunkList.from(piece).concat(list);
        model = choice === 1 ? [...model, ...piece] : [...piece, ...model];
      } else {
        const count = next(model.length + 1);
        list = list.take(count);
        model = model.slice(0, count);
      }
      expect([...list]).toEqual(model);
      const visited: number[] = [];
      list.forEach((item, index) => {
        expect(index).toBe(visited.length);
        visited.push(item);
      });
      expect(visited).toEqual(model);
      expect(list.toArray()).toEqual(model);
      const start = next(model.length + 2);
      const end = start + next(80);
      expect(list.slice(start, end)).toEqual(model.slice(start, end));
    }
  });

  it("iterates the empty list and lists built from empty pieces", () => {
    expect([...ChunkList.empty<number>()]).toEqual([]);
    expect(ChunkList.empty<number>().concat(ChunkList.from([])).toArray()).toEqual([]);
    expect([...ChunkList.from(range(40)).take(0)]).toEqual([]);
    expect(ChunkList.from(range(3)).slice(2, 1)).toEqual([]);
    const iterator = ChunkList.from([1])[Symbol.iterator]();
    expect(iterator.next()).toEqual({ value: 1, done: false });
    expect(iterator.next()).toEqual({ value: undefined, done: true });
    expect(iterator.next().done).toBe(true);
  });

  it("iterates two interleaved iterators of one rope independently (each has its own reused result)", () => {
    const list = ChunkList.from(range(70)).concat(ChunkList.from(range(70).map((n) => n + 70)));
    const first = list[Symbol.iterator]();
    const second = list[Symbol.iterator]();
    const seen: Array<[number, number]> = [];
    for (let step = 0; step < 140; step++) {
      const a = first.next().value as number;
      second.next();
      const b = second.next().value as number | undefined;
      seen.push([a, b ?? -1]);
    }
    expect(seen[0]).toEqual([0, 1]);
    expect(seen[69]).toEqual([69, 139]);
    expect(seen[70]).toEqual([70, -1]);
    expect(seen.map(([a]) => a)).toEqual(range(140));
    expect(first.next()).toEqual({ value: undefined, done: true });
  });

  it("reads lists of many leaves in order, and gives an iterator's holder nothing but the current value", () => {
    const long = ChunkList.from(range(1000)).concat(ChunkList.from(range(333, 1000)));
    let grown = ChunkList.empty<number>();
    for (const i of range(1333)) grown = grown.append(i);
    for (const list of [long, grown, long.concat(grown).take(2000)]) {
      expect([...list]).toEqual(list.toArray());
      expect(list.length).toBeGreaterThan(1000);
    }
    const iterator = long[Symbol.iterator]();
    const first = iterator.next();
    // One object, updated by every next(): its own properties are the result's, its state is private.
    expect(first).toBe(iterator);
    expect(Object.getOwnPropertyNames(iterator)).toEqual(["value", "done"]);
    expect(Object.getOwnPropertySymbols(iterator)).toEqual([]);
    let count = 1;
    while (!iterator.next().done) count++;
    expect(count).toBe(1333);
    expect(iterator.next()).toEqual({ value: undefined, done: true });
  });

  it("never changes a list another holder can see", () => {
    const base = ChunkList.from(range(100));
    const a = base.append(100);
    const b = base.append(-1);
    expect(base.length).toBe(100);
    expect(a.at(100)).toBe(100);
    expect(b.at(100)).toBe(-1);
    expect(base.at(100)).toBeUndefined();
  });

  it("keeps every list's own elements when several lists extend one shared leaf (appends, forks, concats, takes)", () => {
    const base = ChunkList.from(range(10));
    const iterator = base[Symbol.iterator]();
    iterator.next();
    const a = base.append(100); // extends the shared leaf's array in place
    const b = base.append(200); // finds it extended: copies
    const a2 = a.append(101);
    const b2 = b.append(201);
    const c = base.concat(ChunkList.from([300, 301]));
    const t = a2.take(5).append(500);
    const seen = [0];
    for (let step = iterator.next(); !step.done; step = iterator.next()) seen.push(step.value);
    expect(seen).toEqual(range(10));
    expect(base.toArray()).toEqual(range(10));
    expect([...a]).toEqual([...range(10), 100]);
    expect([...a2]).toEqual([...range(10), 100, 101]);
    expect([...b]).toEqual([...range(10), 200]);
    expect([...b2]).toEqual([...range(10), 200, 201]);
    expect([...c]).toEqual([...range(10), 300, 301]);
    expect([...t]).toEqual([...range(5), 500]);
    for (const list of [base, a, a2, b, b2, c, t]) {
      const visited: number[] = [];
      list.forEach((item) => visited.push(item));
      expect(visited).toEqual(list.toArray());
      expect(list.slice(0, list.length)).toEqual(list.toArray());
      expect(list.at(-1)).toBe(list.toArray()[list.length - 1]);
    }
    // Filling a leaf to its limit and past it, from two lists sharing its array.
    let long = base;
    let other = base.append(-1);
    for (let i = 10; i < 300; i++) {
      long = long.append(i);
      other = other.append(-i);
    }
    expect([...long]).toEqual(range(300));
    expect([...other]).toEqual([...range(10), -1, ...range(290, 10).map((i) => -i)]);
  });

  it("stays balanced (depth O(log n)) after many concatenations of uneven lists", () => {
    let list = ChunkList.empty<number>();
    let expected: number[] = [];
    for (let i = 0; i < 300; i++) {
      const piece = range((i * 7) % 50, expected.length);
      list = i % 2 === 0 ? list.concat(ChunkList.from(piece)) : ChunkList.from(piece).concat(list);
      expected = i % 2 === 0 ? [...expected, ...piece] : [...piece, ...expected];
    }
    expect(list.toArray()).toEqual(expected);
    // An AVL tree of n/32 leaves has height <= 1.45 log2(leaves + 2).
    const leaves = Math.max(1, list.length / 8);
    expect(list.depth).toBeLessThanOrEqual(Math.ceil(1.45 * Math.log2(leaves + 2)) + 2);
  });

  it("hands out copies: changing what toArray or slice returned leaves the list as it was", () => {
    const list = ChunkList.from(range(100));
    const array = list.toArray();
    array.push(4);
    array[0] = -1;
    list.slice(0, 10).fill(-1);
    expect(list.length).toBe(100);
    expect(list.toArray()).toEqual(range(100));
  });

  it("keeps the same element objects and a depth within one of the original after append and concat", () => {
    const base = ChunkList.from(range(10_000).map((value) => ({ value })));
    const extended = base.append({ value: -1 });
    for (let index = 0; index < base.length; index += 97) expect(extended.at(index)).toBe(base.at(index));
    expect(extended.depth).toBeLessThanOrEqual(base.depth + 1);
    expect(base.concat(base).depth).toBeLessThanOrEqual(base.depth + 1);
  });
});
