import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { main } from "./inspect";

const root = join(import.meta.dirname, "..", "..");
const bin = join(root, "bin", "rath.mjs");
const fixtures = "runtime/files/fixtures";

function rath(args: string[], cwd = root) {
  const result = spawnSync(process.execPath, [bin, ...args], { cwd, encoding: "utf8", timeout: 60_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

const usage = (prompt: number, completion: number) => ({ prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion });

describe("rath inspect (spawned)", () => {
  it("prints exactly one JSON object for session files, partial files and a lineage export; a bad file is an error with its line and exit 1", () => {
    const { code, stdout, stderr } = rath([
      "inspect",
      `${fixtures}/reference-closed.jsonl`,
      `${fixtures}/rath-memory-route.jsonl`,
      `${fixtures}/crashed.jsonl.__partial__`,
      "--json",
      `${fixtures}/lineage-export.jsonl`,
      `${fixtures}/bad-json-line.jsonl`,
      `${fixtures}/second-header.jsonl`,
      `${fixtures}/schema-version-3.jsonl`,
    ]);
    expect(stderr).toBe("");
    expect(code).toBe(1);
    expect(stdout.endsWith("}\n")).toBe(true);
    expect(JSON.parse(stdout)).toEqual({
      sessions: [
        {
          id: "6f5e4d3c-2b1a-4f9e-8d7c-6b5a4f3e2d1c",
          parent_session_ids: [],
          lineage_kind: "leaf_user",
          lineage_operator: "Session.create",
          chunk_count: 2,
          closed: false,
          own_usage: usage(50, 9),
          cumulative_usage: usage(50, 9),
          ancestors_complete: true,
          recorded_usage: usage(50, 9),
          tool_calls: 1,
          tool_errors: 0,
        },
        {
          id: "7d1e2a44-9b3c-4f58-8a6d-0c2e4b6f8a10",
          parent_session_ids: [],
          lineage_kind: "leaf_user",
          lineage_operator: "Session.create",
          chunk_count: 1,
          closed: null,
          own_usage: null,
          cumulative_usage: null,
          ancestors_complete: true,
          recorded_usage: null,
          tool_calls: null,
          tool_errors: null,
        },
        {
          id: "0b8f3c1e-5d2a-4e7b-9c41-2f6a8d9e1b30",
          parent_session_ids: ["7d1e2a44-9b3c-4f58-8a6d-0c2e4b6f8a10"],
          lineage_kind: "op_session_loop",
          lineage_operator: "run_session_loop",
          chunk_count: 6,
          closed: true,
          own_usage: usage(412, 58),
          cumulative_usage: usage(412, 58),
          ancestors_complete: true,
          recorded_usage: usage(412, 58),
          tool_calls: 2,
          tool_errors: 1,
        },
        {
          id: "0b8f3c1e-5d2a-4e7b-9c41-2f6a8d9e1b30",
          parent_session_ids: ["7d1e2a44-9b3c-4f58-8a6d-0c2e4b6f8a10"],
          lineage_kind: "op_session_loop",
          lineage_operator: "run_session_loop",
          chunk_count: 6,
          closed: null,
          own_usage: usage(412, 58),
          cumulative_usage: usage(412, 58),
          ancestors_complete: true,
          recorded_usage: usage(412, 58),
          tool_calls: null,
          tool_errors: null,
        },
        {
          id: "3c9d7e21-8a4b-4c6d-9e0f-1a2b3c4d5e6f",
          parent_session_ids: ["0b8f3c1e-5d2a-4e7b-9c41-2f6a8d9e1b30"],
          lineage_kind: "op_fork",
          lineage_operator: "Session.fork",
          chunk_count: 6,
          closed: true,
          own_usage: usage(320, 31),
          cumulative_usage: usage(732, 89),
          ancestors_complete: true,
          recorded_usage: usage(320, 31),
          tool_calls: 1,
          tool_errors: 1,
        },
        {
          id: "3c9d7e21-8a4b-4c6d-9e0f-1a2b3c4d5e6f",
          parent_session_ids: ["0b8f3c1e-5d2a-4e7b-9c41-2f6a8d9e1b30"],
          lineage_kind: "op_fork",
          lineage_operator: "Session.fork",
          chunk_count: 6,
          closed: null,
          own_usage: usage(320, 31),
          cumulative_usage: usage(732, 89),
          ancestors_complete: true,
          recorded_usage: usage(320, 31),
          tool_calls: null,
          tool_errors: null,
        },
      ],
      errors: [
        { file: `${fixtures}/bad-json-line.jsonl`, line: 3, message: "expected a JSON object, found invalid JSON" },
        { file: `${fixtures}/second-header.jsonl`, line: 3, message: "expected one header record, found a second header" },
        {
          file: `${fixtures}/schema-version-3.jsonl`,
          line: 1,
          message: "schema_version 3 is newer than this version of Rath reads (at most 2); upgrade Rath to read it",
        },
      ],
    });
  });

  it("works from another directory, reports the truncated-line file as not closed, and exits 0 when all files are good", () => {
    const { code, stdout } = rath(["inspect", "--json", join(root, fixtures, "truncated-last-line.jsonl.__partial__")], "/");
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual({
      sessions: [
        {
          id: "8e7d6c5b-4a39-4281-9f0e-d1c2b3a49586",
          parent_session_ids: [],
          lineage_kind: "leaf_user",
          lineage_operator: "Session.create",
          chunk_count: 1,
          closed: false,
          own_usage: null,
          cumulative_usage: null,
          ancestors_complete: true,
          recorded_usage: null,
          tool_calls: 0,
          tool_errors: 0,
        },
      ],
      errors: [],
    });
  });

  it("prints a human table, with problems on stderr", () => {
    const { code, stdout, stderr } = rath(["inspect", `${fixtures}/crashed.jsonl.__partial__`, `${fixtures}/chunk-before-header.jsonl`]);
    expect(code).toBe(1);
    expect(stdout.split("\n")[0]).toMatch(/^ID\s+KIND\s+OPERATOR\s+PARENTS\s+CHUNKS\s+CLOSED\s+OWN\s+CUMULATIVE\s+TOOLS\s+ERRORS$/);
    expect(stdout).toMatch(/6f5e4d3c-2b1a-4f9e-8d7c-6b5a4f3e2d1c\s+leaf_user\s+Session\.create\s+-\s+2\s+CRASHED\s+59\s+59\s+1\s+0/);
    expect(stderr).toBe(`${fixtures}/chunk-before-header.jsonl:1: expected the header record first, found a chunk before the header\n`);
  });

  it("shows usage: rath --help exits 0; no command, unknown command, unknown flag and no files exit 2", () => {
    const help = rath(["--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/Usage: rath <command>/);
    expect(help.stdout).toMatch(/inspect\s+summarise/);
    expect(rath([]).code).toBe(2);
    const unknown = rath(["frobnicate"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/unknown command 'frobnicate'/);
  });
});

describe("inspect main (in process)", () => {
  const collect = () => {
    const out = { stdout: "", stderr: "" };
    return { out, output: { stdout: (text: string) => (out.stdout += text), stderr: (text: string) => (out.stderr += text) } };
  };

  it("refuses unknown flags and missing files with usage and exit 2, and prints help with exit 0", async () => {
    const flag = collect();
    expect(await main(["--verbose", "x.jsonl"], flag.output)).toBe(2);
    expect(flag.out.stderr).toMatch(/Unknown option '--verbose'[\s\S]*Usage: rath inspect/);
    const none = collect();
    expect(await main(["--json"], none.output)).toBe(2);
    expect(none.out.stderr).toMatch(/expected at least one FILE/);
    const help = collect();
    expect(await main(["-h"], help.output)).toBe(0);
    expect(help.out.stdout).toMatch(/Usage: rath inspect FILE\.\.\. \[--json\]/);
  });

  it("summarises bundles (every session closed: committed sessions are complete; tool counts from chunks) and reports missing files without a line", async () => {
    const run = collect();
    const code = await main(["--json", join(root, fixtures, "run-bundle.jsonl"), "/nonexistent/file.jsonl"], run.output);
    expect(code).toBe(1);
    const parsed = JSON.parse(run.out.stdout) as { sessions: Array<Record<string, unknown>>; errors: Array<Record<string, unknown>> };
    expect(parsed.sessions.map((session) => [session.chunk_count, session.closed, session.tool_calls, session.tool_errors])).toEqual([
      [1, true, 0, 0],
      [2, true, 0, 0],
      [3, true, 1, 1],
    ]);
    expect(parsed.errors).toEqual([{ file: "/nonexistent/file.jsonl", line: null, message: expect.stringMatching(/^cannot read file: ENOENT/) }]);
    // The table says so: CLOSED "yes" on every row, "0 not closed".
    const table = collect();
    await main([join(root, fixtures, "run-bundle.jsonl")], table.output);
    const rows = table.out.stdout.split("\n").slice(1, 4);
    for (const row of rows) expect(row.split(/\s{2,}/)[5]).toBe("yes");
    expect(table.out.stdout).toContain("3 session(s), 0 not closed (crashed or still being written), ");
  });

  it("says the lineage export's sessions have no closed information instead of counting them as closed", async () => {
    const run = collect();
    await main([join(root, fixtures, "lineage-export.jsonl")], run.output);
    expect(run.out.stdout).toMatch(/0 not closed \(crashed or still being written\) \(\d+ from lineage exports, which do not say\)/);
  });
});
