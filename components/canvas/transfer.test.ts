import { describe, expect, it } from "vitest";
import { canonicalJson } from "../../runtime/workflow-spec/canonical-json";
import { minimalSpec } from "../../runtime/workflow-spec/spec-fixtures";
import { documentFromSpec, toLayout, toSpec } from "./canvas-document";
import { exportFileName, exportText, readImport } from "./transfer";

describe("export and import", () => {
  it("round-trips spec and layout exactly", () => {
    const document = documentFromSpec(minimalSpec(), { nodes: { input: { x: 0, y: 16 }, agent: { x: 320, y: 16 }, output: { x: 640, y: 16 } } }, "x");
    const result = readImport(exportText(document), "fallback");
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.problems).toEqual([]);
    expect(canonicalJson(toSpec(result.document))).toBe(canonicalJson(minimalSpec()));
    expect(toLayout(result.document)).toEqual(toLayout(document));
  });

  it("refuses what is not a workflow and names the reason", () => {
    expect(readImport("{nope", "x")).toMatchObject({ ok: false, message: expect.stringMatching(/not JSON/) });
    expect(readImport("[1,2]", "x")).toMatchObject({ ok: false, message: expect.stringMatching(/no workflow/) });
    expect(readImport(JSON.stringify({ name: "x", edges: [] }), "x")).toMatchObject({ ok: false, message: expect.stringMatching(/no nodes array/) });
    expect(readImport(JSON.stringify({ format: "other", spec: {} }), "x")).toMatchObject({ ok: false, message: expect.stringMatching(/Unknown file format/) });
  });

  it("brings a workflow with problems back with every problem", () => {
    const spec = { ...minimalSpec(), edges: [] };
    const result = readImport(JSON.stringify(spec), "x");
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.problems.length).toBeGreaterThan(0);
    expect(exportFileName("My Flow / v2")).toBe("my-flow-v2.rath.json");
  });
});
