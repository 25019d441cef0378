import { describe, expect, it } from "vitest";
import { importedOrigin, runValueText } from "./run-input-text";

describe("runValueText", () => {
  it("shows an imported run's input as where it came from, not as JSON", () => {
    const input = { imported: { file: "fork-merge-research.jsonl", run_id: "run_01abc", workflow: "Fork/merge research", revision: 3 } };
    expect(runValueText(input)).toBe("Imported from fork-merge-research.jsonl (workflow Fork/merge research, original run run_01abc)");
    expect(importedOrigin({ imported: { file: "a.jsonl", run_id: "run_1", workflow: "wf_01kbz9" } })).toBe("Imported from a.jsonl (original run run_1)");
    expect(runValueText(input)).not.toContain("{");
  });

  it("names the file alone when the bundle carried no run", () => {
    expect(runValueText({ imported: { file: "five-thousand.jsonl", run_id: null, workflow: null, revision: null } })).toBe("Imported from five-thousand.jsonl");
    expect(importedOrigin({ imported: {} })).toBe("Imported from a file");
  });

  it("keeps strings, chunk texts and other structured values as before", () => {
    expect(runValueText("Compare SQLite and PostgreSQL.")).toBe("Compare SQLite and PostgreSQL.");
    expect(runValueText({ text: "hello" })).toBe("hello");
    expect(runValueText({ outputs: [{ sessionId: "s1" }] })).toBe('{"outputs":[{"sessionId":"s1"}]}');
    expect(runValueText({ imported: "yes" })).toBe('{"imported":"yes"}');
    expect(runValueText(null)).toBeNull();
  });
});
