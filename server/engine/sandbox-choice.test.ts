/**
 * Which backend server-side runs use (RATH_SANDBOX_BACKEND, else bwrap where available, else local with a
 * warning), and what a tool of such a run can see of the server's environment on each backend.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isRathError } from "../../runtime/errors";
import { backendMissing, reportBwrapSkip } from "../../runtime/tools/test-support";
import { openDatabase, type Database } from "../db/database";
import { chunkPage, sessionGraph } from "../db/session-store";
import { callerFor } from "../api/testing/api-harness";
import { chooseSandboxBackend, logSandboxChoice, requestedSandboxBackend } from "./sandbox-choice";
import { runToCompletion } from "./run-to-completion";
import { queueRun } from "./testing/engine-fixtures";
import { environmentProbeSpec } from "./testing/environment-probe";
import { createTestProvider } from "./testing/test-provider";

const working = async () => ({ ok: true });
const missing = async () => ({ ok: false, reason: "bwrap is not installed (apt-get install bubblewrap)" });

describe("choosing the sandbox backend", () => {
  it("reads RATH_SANDBOX_BACKEND: local, bwrap, unset or empty (auto); case and blanks do not matter", () => {
    expect(requestedSandboxBackend({})).toBe("auto");
    expect(requestedSandboxBackend({ RATH_SANDBOX_BACKEND: "" })).toBe("auto");
    expect(requestedSandboxBackend({ RATH_SANDBOX_BACKEND: " Local " })).toBe("local");
    expect(requestedSandboxBackend({ RATH_SANDBOX_BACKEND: "bwrap" })).toBe("bwrap");
  });

  it("refuses any other value with invalid_config naming the variable, the allowed values and what was found", async () => {
    const caught = await chooseSandboxBackend({ RATH_SANDBOX_BACKEND: "docker" }, working).catch((error: unknown) => error);
    expect(isRathError(caught, "invalid_config")).toBe(true);
    expect((caught as Error).message).toBe('RATH_SANDBOX_BACKEND must be "local" or "bwrap" (or unset for bwrap where available); found "docker"');
  });

  it("uses bwrap by default where it works, and local (unconfined, with the reason) where it does not", async () => {
    expect(await chooseSandboxBackend({}, working)).toMatchObject({ backend: "bwrap", confined: true, requested: "auto" });
    const fallback = await chooseSandboxBackend({}, missing);
    expect(fallback).toMatchObject({ backend: "local", confined: false, requested: "auto" });
    expect(fallback.summary).toContain("bwrap is unavailable (bwrap is not installed (apt-get install bubblewrap))");
  });

  it("runs local when asked even where bwrap works, and refuses bwrap when asked where it cannot run", async () => {
    expect(await chooseSandboxBackend({ RATH_SANDBOX_BACKEND: "local" }, working)).toMatchObject({ backend: "local", confined: false, requested: "local" });
    await expect(chooseSandboxBackend({ RATH_SANDBOX_BACKEND: "bwrap" }, missing)).rejects.toThrow(
      "RATH_SANDBOX_BACKEND=bwrap, but the bwrap sandbox cannot run here: bwrap is not installed (apt-get install bubblewrap)",
    );
  });

  it("logs a warning when tools run unconfined and one info line otherwise", async () => {
    const lines: string[] = [];
    const log = { info: (line: string) => lines.push(`info ${line}`), warn: (line: string) => lines.push(`warn ${line}`) };
    logSandboxChoice(await chooseSandboxBackend({ RATH_SANDBOX_BACKEND: "local" }, working), log);
    logSandboxChoice(await chooseSandboxBackend({}, working), log);
    expect(lines).toEqual([
      "warn [rath] WARNING: tools run UNCONFINED on the local backend (RATH_SANDBOX_BACKEND=local): they can read and write whatever the server's user can",
      "info [rath] tools run in the bwrap sandbox",
    ]);
  });
});

describe("system.info", () => {
  it("tells the IDE the process's backend and whether tools are confined", async () => {
    const directory = mkdtempSync(path.join(os.tmpdir(), "rath-system-info-"));
    const database = await openDatabase({ url: `file:${path.join(directory, "studio.db")}` });
    try {
      const info = await callerFor(database).system.info();
      const expected = await chooseSandboxBackend();
      expect(info).toEqual({ sandboxBackend: expected.backend, confined: expected.backend === "bwrap", requested: expected.requested, summary: expected.summary });
    } finally {
      await database.close();
      rmSync(directory, { recursive: true, force: true });
    }
  });
});

const SECRET = "sk-server-env-probe-0123456789abcdef";

describe.each(["local", "bwrap"] as const)("a code tool of a run on %s", (backend) => {
  let directory = "";
  let database: Database;
  const saved = process.env.OPENAI_API_KEY;

  beforeAll(async () => {
    reportBwrapSkip();
    directory = mkdtempSync(path.join(os.tmpdir(), "rath-tool-env-"));
    database = await openDatabase({ url: `file:${path.join(directory, "studio.db")}` });
    process.env.OPENAI_API_KEY = SECRET;
  });

  afterAll(async () => {
    if (saved === undefined) delete process.env.OPENAI_API_KEY;
    else process.env.OPENAI_API_KEY = saved;
    await database?.close();
    rmSync(directory, { recursive: true, force: true });
  });

  /** Runs the probe on `backend` and returns what the tool reported (as stored). */
  async function probe(): Promise<string> {
    const run = await queueRun(database, environmentProbeSpec());
    const finished = await runToCompletion(database, run.id, { providers: { scripted: createTestProvider() }, placement: { backend } });
    expect(finished.status).toBe("succeeded");
    const graph = await sessionGraph(database, run.id);
    const records = (await Promise.all(graph.sessions.map((session) => chunkPage(database, session.id, { limit: 1000 })))).flat();
    const result = records.find((record) => record.chunk.kind === "tool_result");
    expect(result?.chunk.payload).toMatchObject({ name: "probe_environment" });
    // The session whose tool ran is placed on the run's backend (the agent's system-prompt leaf never binds one).
    expect(graph.sessions.find((session) => session.id === result?.sessionId)?.placement.backend).toBe(backend);
    return String((result?.chunk.payload as { content?: unknown }).content);
  }

  it.skipIf(backendMissing(backend))("gets a minimal environment without the server's OPENAI_API_KEY", async () => {
    const output = await probe();
    const environment = output.slice(output.indexOf("ENV"), output.indexOf("PARENT"));
    expect(environment).toContain("PATH=");
    expect(environment).toContain("HOME=");
    expect(environment).not.toContain("OPENAI_API_KEY");
    expect(environment).not.toContain(SECRET);
    expect(environment, "the key was never there to redact").not.toContain("[REDACTED]");
  }, 60_000);

  if (backend === "bwrap") {
    it.skipIf(backendMissing(backend))("cannot read the key from /proc/$PPID/environ or any ancestor's: only the sandbox's processes are visible", async () => {
      const output = await probe();
      const parent = output.slice(output.indexOf("PARENT"), output.indexOf("ANCESTORS"));
      const ancestors = output.slice(output.indexOf("ANCESTORS"));
      expect(ancestors).toContain("pid 1:");
      expect(parent).not.toContain("OPENAI_API_KEY");
      expect(ancestors).not.toContain("OPENAI_API_KEY");
      expect(output).not.toContain(SECRET);
      expect(output, "the key was never there to redact").not.toContain("[REDACTED]");
    }, 60_000);
  }
});
