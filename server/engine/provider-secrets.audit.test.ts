/**
 * A stored provider's API key never leaves the server, even when the provider fails: a run against a local
 * OpenAI-compatible server that refuses the key (and, worst case, echoes it in its error message) fails with a
 * provider error, and the key appears nowhere — not in anything logged to the console or written to stdout /
 * stderr, not in the run's error or events, not in the API's answers, not in an exported bundle.
 */
import { afterEach, expect, it, vi } from "vitest";
import { startChatCompletionsServer } from "../../runtime/testing/chat-completions-server";
import { describeEachDatabase } from "../db/testing/test-databases";
import { callerFor, exampleSpec } from "../api/testing/api-harness";
import { runToCompletion } from "./run-to-completion";
import { allEvents } from "./testing/canonical-graph";

// Not shaped like "sk-..." on purpose: pattern-based redaction alone would not catch it.
const KEY = "acme_live_AUDIT_never_log_me_0123456789";

afterEach(() => vi.restoreAllMocks());

/** Records everything written to the console and to stdout / stderr while installed. */
function captureOutput(): () => string {
  const written: string[] = [];
  const record = (...values: unknown[]) => {
    written.push(values.map((value) => (value instanceof Error ? `${value.stack} ${JSON.stringify(value)}` : typeof value === "string" ? value : JSON.stringify(value))).join(" "));
  };
  for (const method of ["log", "info", "warn", "error", "debug"] as const) vi.spyOn(console, method).mockImplementation(record);
  for (const stream of [process.stdout, process.stderr]) {
    vi.spyOn(stream, "write").mockImplementation((chunk: string | Uint8Array) => {
      written.push(typeof chunk === "string" ? chunk : Buffer.from(chunk).toString());
      return true;
    });
  }
  return () => written.join("\n");
}

describeEachDatabase("provider secrets during a failing run", (open) => {
  it("the API key is nowhere in logs, run error, events, API answers or exports", async () => {
    const { database } = await open();
    const upstream = await startChatCompletionsServer({
      script: () => ({ type: "error", status: 401, message: `Incorrect API key provided: ${KEY}. Authorization: Bearer ${KEY}`, code: "invalid_api_key" }),
    });
    const logged = captureOutput();
    try {
      const api = callerFor(database);
      await api.settings.providers.upsert({ name: "acme", kind: "openai", baseUrl: upstream.baseURL, model: "gpt-audit", apiKey: KEY });
      const spec = exampleSpec("hello-agent");
      spec.settings = { defaultProvider: "acme", defaultModel: "gpt-audit", stepRetries: 1 };
      const { run } = await api.runs.start({ spec, input: "hello" });
      const finished = await runToCompletion(database, run.id, { retryBaseMs: 5, retryMaxMs: 10 });

      expect(finished.status).toBe("failed");
      expect(finished.error?.code).toBe("provider_error");
      const sent = upstream.completionRequests();
      expect(sent.length).toBeGreaterThan(0);
      expect(sent[0]?.headers.authorization).toBe(`Bearer ${KEY}`);

      const visible = JSON.stringify([
        finished,
        await allEvents(database, run.id),
        await api.runs.get({ runId: run.id }),
        await api.runs.events({ runId: run.id, afterSeq: 0, limit: 1000 }),
        await api.settings.providers.list(),
        await api.transfer.exportRun({ runId: run.id, dialect: "rath" }),
      ]);
      expect(visible).toContain("provider");
      expect(visible).not.toContain(KEY);
      expect(logged()).not.toContain(KEY);
    } finally {
      vi.restoreAllMocks();
      await upstream.close();
    }
  }, 60_000);
});
