import { describe, expect, it } from "vitest";
import { effectOf, toolOutcome, type EffectEntry } from "../inspector/chunk-evidence";
import { safeUrl } from "../inspector/safe-markdown";
import { graphSession } from "../run-state/testing-sessions";
import { chunkPageInput, pageStarts } from "./chunk-pages";
import { chunkRows, fallbackSegments, growSegments, type ChunkSegment } from "./chunk-rows";
import { costOf, formatCost } from "./run-costs";
import { firstFailure, runErrors } from "./run-errors";
import { parseUrlSelection, selectionSearch } from "./run-selection-url";
import { sessionUsageView } from "./usage-views";

const usage = (total: number) => ({ prompt_tokens: total - 1, completion_tokens: 1, total_tokens: total });

describe("chunk rows", () => {
  const merge: ChunkSegment[] = [
    { kind: "shared", from: 0, to: 2, sourceSessionId: "left", sameAs: null },
    { kind: "inherited", from: 2, to: 4, sourceSessionId: "left", sameAs: null },
    { kind: "join", from: 4, to: 4, sourceSessionId: null, sameAs: null },
    { kind: "repeated", from: 4, to: 6, sourceSessionId: "right", sameAs: { from: 0, to: 2 } },
    { kind: "inherited", from: 6, to: 7, sourceSessionId: "right", sameAs: null },
  ];
  const chunks = (rows: ReturnType<typeof chunkRows>) => rows.flatMap((row) => (row.type === "chunk" ? [row.index] : []));

  it("shows a merge's shared prefix once, collapsed, with the join point, and its repetition collapsed", () => {
    const rows = chunkRows(merge, new Set(), null);
    expect(rows.map((row) => row.type)).toEqual(["segment", "segment", "chunk", "chunk", "join", "segment", "segment", "chunk"]);
    expect(chunks(rows)).toEqual([2, 3, 6]);
    expect(rows.filter((row) => row.type === "segment").map((row) => (row.type === "segment" ? row.collapsed : null))).toEqual([true, false, true, false]);
  });

  it("opens a toggled segment and the one holding the revealed chunk", () => {
    expect(chunks(chunkRows(merge, new Set(["shared:0"]), null))).toEqual([0, 1, 2, 3, 6]);
    expect(chunks(chunkRows(merge, new Set(["inherited:2"]), 5))).toEqual([4, 5, 6]);
  });

  it("lists a single segment without a header and grows the own segment with the live count", () => {
    const own = fallbackSegments(3, 0, null);
    expect(chunkRows(own, new Set(), null).map((row) => row.type)).toEqual(["chunk", "chunk", "chunk"]);
    const loop = fallbackSegments(5, 2, "parent");
    expect(loop.map((segment) => [segment.kind, segment.from, segment.to])).toEqual([["inherited", 0, 2], ["own", 2, 5]]);
    expect(growSegments(loop, 8).at(-1)).toMatchObject({ kind: "own", from: 2, to: 8 });
    expect(growSegments(merge, 9).at(-1)).toMatchObject({ kind: "own", from: 7, to: 9 });
    expect(growSegments(merge, 7)).toEqual(merge);
  });
});

describe("chunk pages", () => {
  it("reads fixed pages of 50, cut at the session's count", () => {
    expect(chunkPageInput("s", 0, 3)).toEqual({ sessionId: "s", fromIndex: 0, toIndex: 3, limit: 50 });
    expect(chunkPageInput("s", 75, 1000)).toEqual({ sessionId: "s", fromIndex: 50, toIndex: 100, limit: 50 });
    expect(pageStarts([3, 49, 50, 120])).toEqual([0, 50, 100]);
  });
});

describe("selection in the URL", () => {
  it("parses session and chunk, ignoring bad values, and keeps other parameters", () => {
    expect(parseUrlSelection({ session: "abc-1", chunk: "4" })).toEqual({ sessionId: "abc-1", chunkIndex: 4 });
    expect(parseUrlSelection(new URLSearchParams("session=abc&chunk=x"))).toEqual({ sessionId: "abc", chunkIndex: null });
    expect(parseUrlSelection({ session: "<script>", chunk: "1" })).toEqual({ sessionId: null, chunkIndex: null });
    expect(parseUrlSelection({ chunk: "2" })).toEqual({ sessionId: null, chunkIndex: null });
    expect(selectionSearch("?tab=x&session=old", { sessionId: "new", chunkIndex: 3 })).toBe("?tab=x&session=new&chunk=3");
    expect(selectionSearch("?session=old&chunk=1", { sessionId: null, chunkIndex: null })).toBe("");
  });
});

describe("usage views", () => {
  // root -> fork a, fork b (no own usage) -> loops; merge of both loops (no own usage) -> summary
  const sessions = [
    graphSession("root", [], "leaf_user", { ownUsage: null }),
    graphSession("a", ["root"], "op_fork"),
    graphSession("b", ["root"], "op_fork"),
    graphSession("la", ["a"], "op_session_loop", { ownUsage: usage(10) }),
    graphSession("lb", ["b"], "op_session_loop", { ownUsage: usage(20) }),
    graphSession("m", ["la", "lb"], "op_merge"),
    graphSession("s", ["m"], "op_session_loop", { ownUsage: usage(5) }),
  ];
  it("counts each session's own usage once: merges never double count", () => {
    const view = sessionUsageView(sessions, "s");
    expect(view?.own?.total_tokens).toBe(5);
    expect(view?.cumulative?.total_tokens).toBe(35);
    expect(view?.run?.total_tokens).toBe(35);
    expect(sessionUsageView(sessions, "root")?.subtree?.total_tokens).toBe(35);
    expect(sessionUsageView(sessions, "b")?.subtree?.total_tokens).toBe(25);
    expect(sessionUsageView(sessions, "m")?.own).toBeNull();
    expect(sessionUsageView(sessions, "nope")).toBeNull();
  });
});

describe("run errors", () => {
  it("lists failing sessions with their first failing chunk, then the run's failure; jump goes to the chunk", () => {
    const sessions = [graphSession("ok"), graphSession("bad", ["ok"], "op_session_loop", { toolErrors: { count: 2, firstIndex: 3 } })];
    const errors = runErrors(sessions, { code: "step_failed", message: "boom", node_id: "tool" }, { nodeId: "tool", code: "step_failed", message: "boom", at: 0, inputs: ["ok"] });
    expect(errors.map((entry) => [entry.title, entry.sessionId, entry.chunkIndex])).toEqual([
      ["2 failed tool calls", "bad", 3],
      ["step_failed at node tool", "ok", null],
    ]);
    expect(firstFailure(errors)?.sessionId).toBe("bad");
    expect(runErrors([graphSession("ok")], null, null)).toEqual([]);
  });
});

describe("chunk evidence", () => {
  it("reads a tool error's kind and message, and an ok result", () => {
    const failed = toolOutcome(JSON.stringify({ ok: false, error_kind: "file_not_found", message: "no such file: x" }), { ok: false, error_kind: "file_not_found" });
    expect(failed).toMatchObject({ ok: false, errorKind: "file_not_found", message: "no such file: x", resultIsJson: true });
    expect(toolOutcome("plain text", { ok: true })).toMatchObject({ ok: true, errorKind: null, result: "plain text", resultIsJson: false });
  });
  it("finds the ledger entry by tool and arguments, whatever the key order", () => {
    const effects = [{ id: "e1", tool: "write", args: { path: "a", content: "x" }, status: "succeeded" }] as unknown as EffectEntry[];
    expect(effectOf(effects, "write", { content: "x", path: "a" })?.id).toBe("e1");
    expect(effectOf(effects, "write", { path: "b" })).toBeNull();
  });
});

describe("safe markdown URLs", () => {
  it("allows http(s) and mailto links, never javascript: or data:", () => {
    expect(safeUrl("https://example.com/a")).toBe("https://example.com/a");
    expect(safeUrl("mailto:a@example.com")).toBe("mailto:a@example.com");
    expect(safeUrl("javascript:alert(1)")).toBeNull();
    expect(safeUrl(" JavaScript:alert(1)")).toBeNull();
    expect(safeUrl("data:text/html,<script>")).toBeNull();
    expect(safeUrl("mailto:a@example.com", true)).toBeNull();
    expect(safeUrl("#section")).toBe("#section");
  });
});

describe("run costs", () => {
  const usage = {
    a: [{ model: "m1", prompt_tokens: 1_000_000, completion_tokens: 100_000 }],
    b: [
      { model: "m1", prompt_tokens: 500_000, completion_tokens: 0 },
      { model: "m2", prompt_tokens: 10, completion_tokens: 10 },
    ],
    c: [],
  };
  const prices = [{ model: "m1", inputPerMillion: 3, outputPerMillion: 15 }];

  it("prices each model's own tokens, counting each session once", () => {
    expect(costOf(["a", "a"], usage, prices)).toEqual({ usd: 4.5, unpricedModels: [], used: true });
    expect(costOf(["c"], usage, prices)).toEqual({ usd: null, unpricedModels: [], used: false });
  });

  it("is unknown, naming the models to price, when one model has no price", () => {
    expect(costOf(["a", "b"], usage, prices)).toEqual({ usd: null, unpricedModels: ["m2"], used: true });
    expect(costOf(["a", "b"], usage, [...prices, { model: "m2", inputPerMillion: 1_000_000, outputPerMillion: 0 }]).usd).toBeCloseTo(4.5 + 1.5 + 10, 9);
  });

  it("formats cents with two decimals and smaller amounts with two significant digits", () => {
    expect([formatCost(0), formatCost(4.5), formatCost(1234.567), formatCost(0.000123)]).toEqual(["$0.00", "$4.50", "$1,234.57", "$0.00012"]);
  });
});
