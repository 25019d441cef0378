import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { sandboxBackends } from "../runtime";
import { main as inspect } from "../runtime/cli/inspect";

const run = promisify(execFile);
const directory = join(process.cwd(), "examples");

const bwrap = await sandboxBackends.get("bwrap").available();
// Under CI=true bwrap is required: expect it in 03's line, so a missing bwrap fails instead of passing with local only.
const expectBwrap = bwrap.ok || process.env.CI === "true";

/** The `ok:` line each example must print offline: a value that proves it did what it says. */
const expectedOkLines: Record<string, RegExp> = {
  "01-hello-agent.ts": /^ok: reply="Hello! I am a scripted model, answering offline\." parents=2$/m,
  "02-lineage.ts": /^ok: sessions=5 edges=4 merged_chunks=4 export_lines=5$/m,
  "03-sandbox-backends.ts": expectBwrap ? /^ok: ran=local:sandboxed,bwrap:sandboxed$/m : /^ok: ran=local:sandboxed$/m,
  "04-builtin-tools.ts": /^ok: tool_results=7 succeeded=6 failed=tool_policy_denied$/m,
  "05-custom-tool.ts": /^ok: outcomes=error:invalid_tool_arguments then \{"value":212\}$/m,
  "06-mcp-tool.ts": /^ok: mcp_calls=3 connections_opened=1 last_result=\{"text":"The sum of 42 and 58 is 100\."\}$/m,
  "07-streaming-usage.ts": /^ok: total_tokens=126 deltas=3 budget_crossings=1$/m,
  "08-compression.ts": /^ok: rows_in=6 rows_out=1 lossy=true continued_chunks=3$/m,
  "09-memory.ts": /^ok: hits=2 top=memory:\/\/user\/diet committed=2 reloaded=4$/m,
  "10-provider-variation.ts": /^ok: scripted:\{"words":7\} openai-compatible:\{"words":7\}$/m,
  "11-selector.ts": /^ok: if=billing while=tech>wrapup route_chunks=3$/m,
};

/** The environment without model credentials, so every example takes its offline path. */
function offlineEnvironment(): NodeJS.ProcessEnv {
  const environment = { ...process.env };
  for (const name of ["OPENAI_API_KEY", "OPENAI_BASE_URL", "OPENAI_DEFAULT_MODEL", "ANTHROPIC_API_KEY", "RATH_PROVIDER"]) delete environment[name];
  return environment;
}

const outputs = mkdtempSync(join(tmpdir(), "rath-examples-"));
afterAll(() => rmSync(outputs, { recursive: true, force: true }));

describe("examples", () => {
  it("every numbered example has an expected ok line", () => {
    const files = readdirSync(directory).filter((file) => /^\d\d-.*\.ts$/.test(file) && !file.endsWith(".test.ts"));
    expect(files.sort()).toEqual(Object.keys(expectedOkLines).sort());
  });

  it.each(Object.entries(expectedOkLines))("%s runs offline, exits 0 and prints its ok line", async (file, okLine) => {
    const { stdout } = await run(process.execPath, ["--import", "tsx", join(directory, file)], {
      cwd: process.cwd(),
      env: { ...offlineEnvironment(), RATH_EXAMPLE_DIR: join(outputs, file) },
      timeout: 60_000,
    });
    expect(stdout).toMatch(okLine);
    if (file !== "02-lineage.ts") expect(stdout).toContain("model: scripted (offline");
  }, 60_000);

  it("02 leaves the files the README's `rath inspect` example reads: five closed sessions, a crashed partial file, the lineage export", async () => {
    const written = join(outputs, "02-lineage.ts");
    const files = readdirSync(written);
    expect(files.filter((name) => name.endsWith(".jsonl") && name !== "lineage.jsonl")).toHaveLength(5);
    expect(files.filter((name) => name.endsWith(".jsonl.__partial__"))).toHaveLength(1);
    expect(files).toContain("lineage.jsonl");
    const out: string[] = [];
    const code = await inspect(files.map((name) => join(written, name)), { stdout: (text) => out.push(text), stderr: () => undefined });
    expect(code).toBe(0);
    expect(out.join("")).toMatch(/11 session\(s\), 1 not closed \(crashed or still being written\) \(5 from lineage exports, which do not say\)/);
  });
});
