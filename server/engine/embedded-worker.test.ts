import { describe, expect, it } from "vitest";
import { embeddedWorkerDecision } from "./embedded-worker";
import { startEmbeddedWorker } from "./start-embedded-worker";

describe("embeddedWorkerDecision", () => {
  it("starts on SQLite by default and names the file", () => {
    const decision = embeddedWorkerDecision({ RATH_DB_PATH: "/tmp/x/studio.db" });
    expect(decision).toEqual({ start: true, reason: "embedded mode: in-process worker on /tmp/x/studio.db" });
  });

  it("does not start when switched off or on PostgreSQL", () => {
    expect(embeddedWorkerDecision({ RATH_EMBEDDED_WORKER: "0" }).start).toBe(false);
    expect(embeddedWorkerDecision({ RATH_IN_PROCESS_WORKER: "off" }).start).toBe(false);
    const postgres = embeddedWorkerDecision({ DATABASE_URL: "postgres://postgres@127.0.0.1:5432/test" });
    expect(postgres.start).toBe(false);
    expect(postgres.reason).toContain("npm run worker");
  });

  it("startEmbeddedWorker does nothing when switched off", async () => {
    expect(await startEmbeddedWorker({ RATH_EMBEDDED_WORKER: "0" })).toBe(false);
  });
});
