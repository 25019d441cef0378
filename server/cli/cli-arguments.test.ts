import { describe, expect, it } from "vitest";
import { main as inspect } from "../../runtime/cli/inspect";
import { validateWorkflowSpec } from "../../runtime/workflow-spec/validate";
import { describeProblem, parseArguments } from "./run";
import { parseWorkerArguments } from "./worker-arguments";

describe("CLI arguments (node:util parseArgs)", () => {
  it("worker: --flag=value keeps everything after the first '=', and the usual forms work", () => {
    expect(parseWorkerArguments(["--worker-id=a=b", "--lease-ms", "5000", "--concurrency=2"])).toEqual({ concurrency: 2, leaseMs: 5000, pollMs: 500, workerId: "a=b" });
    expect(parseWorkerArguments([])).toEqual({ concurrency: 1, leaseMs: 30_000, pollMs: 500 });
    expect(parseWorkerArguments(["-h"])).toBe("help");
    expect(() => parseWorkerArguments(["--lease-ms=0"])).toThrow("--lease-ms must be a positive integer; found '0'");
    expect(() => parseWorkerArguments(["--nope"])).toThrow(/Unknown option '--nope'/);
    expect(() => parseWorkerArguments(["stray"])).toThrow(/Unexpected argument 'stray'/);
  });

  it("rath run: --input=a=b keeps 'a=b'; one spec file; -- ends the options", () => {
    expect(parseArguments(["spec.json", "--input=a=b", "--timeout-ms=100", "--json"])).toEqual({
      specFile: "spec.json",
      input: "a=b",
      timeoutMs: 100,
      json: true,
      databasePath: undefined,
    });
    expect(parseArguments(["--db", "x.db", "--", "--odd-name.json"])).toMatchObject({ specFile: "--odd-name.json", databasePath: "x.db" });
    expect(parseArguments(["--help"])).toBe("help");
    expect(() => parseArguments([])).toThrow("expected a spec file (SPEC.json)");
    expect(() => parseArguments(["a.json", "b.json"])).toThrow("expected one spec file, found another argument 'b.json'");
    expect(() => parseArguments(["a.json", "--input"])).toThrow(/--input/);
  });

  it("rath inspect: unknown options are a usage error (exit 2), -- ends the options", async () => {
    const out: string[] = [];
    const err: string[] = [];
    const output = { stdout: (text: string) => out.push(text), stderr: (text: string) => err.push(text) };
    expect(await inspect(["--bogus"], output)).toBe(2);
    expect(err.join("")).toMatch(/^rath inspect: Unknown option '--bogus'/);
    expect(await inspect(["--", "--missing-file"], output)).toBe(1);
  });
});

describe("rath run: a bad spec's problems, each once", () => {
  it("says where and what, without repeating the path or printing 'undefined'", () => {
    const result = validateWorkflowSpec({ version: 1 });
    expect(result.ok).toBe(false);
    const lines = result.ok ? [] : result.problems.map(describeProblem);
    expect(lines).toEqual([
      "  name: expected string, found nothing [invalid_field]",
      "  nodes: expected an array, found nothing [invalid_field]",
      "  edges: expected an array, found nothing [invalid_field]",
    ]);
  });

  it("names the node and the field of a node's problem", () => {
    const result = validateWorkflowSpec({ version: 1, name: "x", nodes: [{ id: "writer", type: "agent", config: { name: 7 } }], edges: [] });
    const lines = result.ok ? [] : result.problems.map(describeProblem);
    expect(lines).toContain("  node writer, nodes[0].config.name: expected string, found number 7 [invalid_field]");
  });

  it("names the allowed values of a literal or an enum in the same words", () => {
    const memory = { id: "notes", type: "memory", config: { store: "s", scope: "everyone", recall: true, commit: false } };
    const result = validateWorkflowSpec({ version: 2, name: "x", nodes: [memory], edges: [] });
    const lines = result.ok ? [] : result.problems.map(describeProblem);
    expect(lines).toContain("  version: expected 1, found number 2 [invalid_field]");
    expect(lines).toContain('  node notes, nodes[0].config.scope: expected one of "user", "agent", "session", "resources", found the string "everyone" [invalid_field]');
  });
});
