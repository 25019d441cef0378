import { describe, expect, it } from "vitest";
import { makeChunk, type Chunk } from "../../runtime/session/chunk";
import { alignChunks, comparableText, formatDelta, MAX_ALIGN_CELLS, wordDiff, type AlignedRow, type IndexedChunk } from "./align-chunks";

function indexed(chunks: Chunk[], from = 0): IndexedChunk[] {
  return chunks.map((chunk, offset) => ({ index: from + offset, chunk }));
}

const say = (text: string) => makeChunk("assistant", { content: text, tool_calls: null });
const call = (name: string) => makeChunk("assistant", { content: null, tool_calls: [{ id: `c-${name}`, type: "function", function: { name, arguments: "{}" } }] });
const result = (name: string, content: string) => makeChunk("tool_result", { tool_call_id: `c-${name}`, name, content });

function shape(rows: AlignedRow[]): string[] {
  return rows.map((row) => (row.kind === "pair" ? `${row.left.index}=${row.right.index}${row.same ? "" : "*"}` : row.kind === "left" ? `${row.left.index}<` : `>${row.right.index}`));
}

describe("alignChunks", () => {
  it("pairs equal positions and marks the changed pair", () => {
    expect(shape(alignChunks(indexed([say("a"), say("b")], 3), indexed([say("a"), say("c")], 3)))).toEqual(["3=3", "4=4*"]);
  });

  it("anchors on shape, so an extra tool round on one side does not shift later pairs", () => {
    const left = indexed([call("search"), result("search", "x"), say("done")], 2);
    const right = indexed([call("search"), result("search", "x"), call("read"), result("read", "y"), say("done!")], 2);
    expect(shape(alignChunks(left, right))).toEqual(["2=2", "3=3", ">4", ">5", "4=6*"]);
  });

  it("pairs chunks of different kinds in a gap in order, and shows the longer side's rest alone", () => {
    const left = indexed([makeChunk("user", { content: "q" }), say("x"), say("y")]);
    const right = indexed([result("t", "r")]);
    const rows = alignChunks(left, right);
    expect(shape(rows)).toEqual(["0=0*", "1<", "2<"]);
  });

  it("handles empty sides", () => {
    expect(alignChunks([], [])).toEqual([]);
    expect(shape(alignChunks(indexed([say("a")]), []))).toEqual(["0<"]);
    expect(shape(alignChunks([], indexed([say("a")])))).toEqual([">0"]);
  });

  it("falls back to positional pairs above the cell limit", () => {
    const size = Math.ceil(Math.sqrt(MAX_ALIGN_CELLS)) + 1;
    const left = indexed(Array.from({ length: size }, () => say("same")));
    const right = indexed([call("x"), ...Array.from({ length: size }, () => say("same"))]);
    const rows = alignChunks(left, right);
    expect(rows).toHaveLength(size + 1);
    expect(shape(rows.slice(0, 2))).toEqual(["0=0*", "1=1"]);
  });
});

describe("wordDiff", () => {
  it("marks removed and added words and keeps each side's text", () => {
    const parts = wordDiff("ship on Friday morning", "ship on Monday morning");
    expect(parts.filter((part) => part.change === "removed").map((part) => part.text)).toEqual(["Friday"]);
    expect(parts.filter((part) => part.change === "added").map((part) => part.text)).toEqual(["Monday"]);
    expect(parts.filter((part) => part.change !== "added").map((part) => part.text).join("")).toBe("ship on Friday morning");
    expect(parts.filter((part) => part.change !== "removed").map((part) => part.text).join("")).toBe("ship on Monday morning");
  });
});

describe("comparableText and formatDelta", () => {
  it("shows tool calls of an assistant chunk and signs deltas", () => {
    expect(comparableText(call("search"))).toBe("→ search({})");
    expect(formatDelta(1200, " tok")).toBe("+1,200 tok");
    expect(formatDelta(-35)).toBe("−35");
    expect(formatDelta(0)).toBe("±0");
  });
});
