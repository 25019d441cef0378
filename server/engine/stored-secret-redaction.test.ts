/**
 * The second line of defence: a worker whose environment holds provider keys runs a code tool on `local`, which
 * reads them from its ancestors' /proc/<pid>/environ (the worker's) and prints them. What is stored — chunks,
 * events, the effect ledger — and both export dialects carry `[REDACTED]`, never a key; neither do the bytes of
 * the SQLite file and its WAL. Saved settings keys are redacted the same way by the one serialiser of run data.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { spawn } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callerFor } from "../api/testing/api-harness";
import { openDatabase, type Database } from "../db/database";
import { listEffects } from "../db/effect-ledger";
import { toJsonText } from "../db/json-text";
import { readMemoryDocuments, writeMemoryDocuments } from "../db/memory-documents";
import { createWorkflow } from "../db/workflow-store";
import { saveProviderSetting } from "../db/provider-settings-store";
import { getRun } from "../db/run-store";
import { chunkPage, sessionGraph } from "../db/session-store";
import { REDACTED, redactStoredText, refreshEnvironmentSecrets, secretsOfEnvironment } from "../db/stored-secrets";
import { allEvents } from "./testing/canonical-graph";
import { queueRun } from "./testing/engine-fixtures";
import { environmentProbeSpec } from "./testing/environment-probe";
import { waitFor } from "./testing/spawn-worker";

// Not shaped like "sk-..." on purpose: pattern-based redaction would not catch them, only the configured values.
const OPENAI_KEY = "openai_live_REDACTION_probe_0123456789";
const ANTHROPIC_KEY = "anthropic_live_REDACTION_probe_9876543210";
const RATH_KEY = "rath_token_REDACTION_probe_5555555555";
const KEYS = [OPENAI_KEY, ANTHROPIC_KEY, RATH_KEY];
const WORKER = fileURLToPath(new URL("./testing/crash-worker.ts", import.meta.url));

describe("secrets a local tool reads from the worker's environment", () => {
  let directory = "";
  let database: Database;
  let runId = "";

  beforeAll(async () => {
    directory = mkdtempSync(path.join(os.tmpdir(), "rath-redaction-"));
    const url = `file:${path.join(directory, "studio.db")}`;
    database = await openDatabase({ url });
    runId = (await queueRun(database, environmentProbeSpec())).id;
    // A worker process (placement: the local backend) started with the keys in its environment, as a server is.
    const worker = spawn(process.execPath, ["--import", "tsx", WORKER, url], {
      detached: true,
      stdio: ["ignore", "ignore", "pipe"],
      env: { ...process.env, OPENAI_API_KEY: OPENAI_KEY, ANTHROPIC_API_KEY: ANTHROPIC_KEY, RATH_TEST_TOKEN: RATH_KEY },
    });
    try {
      await waitFor(async () => ["succeeded", "failed"].includes((await getRun(database, runId))?.status ?? ""), 90_000, "the run to finish");
    } finally {
      if (worker.pid !== undefined) process.kill(-worker.pid, "SIGKILL");
    }
    expect((await getRun(database, runId))?.status).toBe("succeeded");
  }, 120_000);

  afterAll(async () => {
    await database?.close();
    rmSync(directory, { recursive: true, force: true });
  });

  it("the tool did read the keys (through an ancestor's environ) and its stored result says [REDACTED]", async () => {
    const graph = await sessionGraph(database, runId);
    const records = (await Promise.all(graph.sessions.map((session) => chunkPage(database, session.id, { limit: 1000 })))).flat();
    const result = records.find((record) => record.chunk.kind === "tool_result");
    const content = String((result?.chunk.payload as { content?: unknown }).content);
    expect(content).toContain(`OPENAI_API_KEY=${REDACTED}`);
    expect(content).toContain(`ANTHROPIC_API_KEY=${REDACTED}`);
    expect(content).toContain(`RATH_TEST_TOKEN=${REDACTED}`);
    const stored = JSON.stringify(records);
    for (const key of KEYS) expect(stored).not.toContain(key);
  });

  it("events and the effect ledger carry [REDACTED], never a key", async () => {
    const events = JSON.stringify(await allEvents(database, runId));
    const ledger = await listEffects(database, runId);
    expect(ledger.map((effect) => [effect.tool, effect.status])).toEqual([["probe_environment", "succeeded"]]);
    expect(JSON.stringify(ledger)).toContain(`OPENAI_API_KEY=${REDACTED}`);
    for (const key of KEYS) {
      expect(events).not.toContain(key);
      expect(JSON.stringify(ledger)).not.toContain(key);
    }
  });

  it("both export dialects (bundle and reference schema-1 JSONL) carry [REDACTED], never a key", async () => {
    const api = callerFor(database);
    const bundle = JSON.stringify(await api.transfer.exportRun({ runId, dialect: "rath" }));
    const reference = JSON.stringify(await api.transfer.exportRun({ runId, dialect: "reference" }));
    for (const exported of [bundle, reference]) {
      expect(exported).toContain(`OPENAI_API_KEY=${REDACTED}`);
      for (const key of KEYS) expect(exported).not.toContain(key);
    }
  });

  it("no key is anywhere in the bytes of the database file or its WAL", async () => {
    const file = path.join(directory, "studio.db");
    const bytes = [file, `${file}-wal`].map((name) => readFileSync(name).toString("latin1")).join("");
    expect(bytes).toContain("probe_environment");
    for (const key of KEYS) expect(bytes).not.toContain(key);
  });
});

describe("the secrets redacted from stored run data", () => {
  it("are the environment's secret-named variables (long enough to be keys) and the password of DATABASE_URL", () => {
    expect(
      secretsOfEnvironment({
        OPENAI_API_KEY: OPENAI_KEY,
        ANTHROPIC_API_KEY: ANTHROPIC_KEY,
        RATH_SECRET_KEY: "k".repeat(44),
        BETTER_AUTH_SECRET: "auth-secret-value-123",
        GITHUB_TOKEN: "ghp_tokenvalue1234",
        FEATURE_TOKEN: "enabled",
        PATH: "/usr/bin:/bin/with/a/long/value",
        DATABASE_URL: "postgres://rath:db-password-1234@127.0.0.1:5432/rath",
      }),
    ).toEqual([OPENAI_KEY, ANTHROPIC_KEY, "k".repeat(44), "auth-secret-value-123", "ghp_tokenvalue1234", "db-password-1234"]);
  });

  it("include a provider key saved in settings, replaced in JSON text (escaped forms too), plain text and memory documents", async () => {
    const directory = mkdtempSync(path.join(os.tmpdir(), "rath-redaction-settings-"));
    const database = await openDatabase({ url: `file:${path.join(directory, "studio.db")}` });
    try {
      refreshEnvironmentSecrets({});
      const key = 'settings"key\\with-quote-0001';
      await saveProviderSetting(database, { name: "acme", kind: "openai", apiKey: key });
      const text = toJsonText({ content: `the key is ${key}.`, nested: [{ key }] }, "a chunk");
      expect(JSON.parse(text)).toEqual({ content: `the key is ${REDACTED}.`, nested: [{ key: REDACTED }] });
      expect(redactStoredText(`error: ${key}`)).toBe(`error: ${REDACTED}`);
      expect(toJsonText({ spec: key }, "a spec", { redact: false })).toContain("with-quote");
      const workflow = await createWorkflow(database, { name: "memory" });
      await writeMemoryDocuments(database, { workflowId: workflow.id, store: "notes" }, [{ uri: "memory://notes/key", text: `remember ${key}` }]);
      expect(await readMemoryDocuments(database, { workflowId: workflow.id, store: "notes" })).toEqual([{ uri: "memory://notes/key", text: `remember ${REDACTED}` }]);
    } finally {
      refreshEnvironmentSecrets();
      await database.close();
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
