import { describe, expect, it } from "vitest";
import { bm25Scores, tokenize } from "./bm25";

const documents = ["apple banana apple", "banana cherry", "durian"];

describe("tokenize", () => {
  it("keeps [A-Za-z0-9]+ runs, lowercased", () => {
    expect(tokenize("Hello, World! x2 -- foo_bar café")).toEqual(["hello", "world", "x2", "foo", "bar", "caf"]);
  });
});

describe("bm25Scores", () => {
  it("matches hand-computed scores (k1 = 1.5, b = 0.75, N = 3, avgdl = 2)", () => {
    // apple: n = 1, idf = ln(1 + 2.5 / 1.5) = ln(8/3); doc 0 has tf = 2, dl = 3:
    // 2 * 2.5 / (2 + 1.5 * (0.25 + 0.75 * 1.5)) = 5 / 4.0625
    const apple = bm25Scores(documents, "apple");
    expect(apple[0]?.index).toBe(0);
    expect(apple[0]?.score).toBeCloseTo(Math.log(8 / 3) * (5 / 4.0625), 10);
    expect(apple[0]?.score).toBeCloseTo(1.2071745, 6);
    expect(apple.slice(1).map((score) => score.score)).toEqual([0, 0]);
  });

  it("prefers the shorter document for an equally frequent term", () => {
    // banana: n = 2, idf = ln(1 + 1.5 / 2.5) = ln(1.6); doc 1 (dl = avgdl) scores idf * 1,
    // doc 0 (dl = 3) scores idf * 2.5 / 3.0625.
    const banana = bm25Scores(documents, "Banana");
    expect(banana.map((score) => score.index)).toEqual([1, 0, 2]);
    expect(banana[0]?.score).toBeCloseTo(Math.log(1.6), 10);
    expect(banana[1]?.score).toBeCloseTo(Math.log(1.6) * (2.5 / 3.0625), 10);
    expect(banana[0]?.score).toBeCloseTo(0.4700036, 6);
  });

  it("counts a repeated query term twice and sums terms", () => {
    const once = bm25Scores(documents, "cherry")[0]?.score ?? 0;
    const twice = bm25Scores(documents, "cherry cherry")[0]?.score ?? 0;
    expect(twice).toBeCloseTo(2 * once, 10);
    const both = bm25Scores(documents, "banana cherry").find((score) => score.index === 1)?.score ?? 0;
    expect(both).toBeCloseTo(once + Math.log(1.6), 10);
  });

  it("scores everything 0 for an empty query or no documents", () => {
    expect(bm25Scores(documents, "!!!").every((score) => score.score === 0)).toBe(true);
    expect(bm25Scores([], "apple")).toEqual([]);
  });
});
