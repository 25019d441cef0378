/**
 * Settings changes take effect on the next run of the same long-lived worker (no restart): a rotated key is the
 * one the next model request carries, and a deleted provider fails the next run with "provider '<name>' is not
 * configured". The model is a local server speaking the OpenAI Chat Completions wire protocol.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { startChatCompletionsServer } from "../../runtime/testing/chat-completions-server";
import { callerFor, exampleSpec } from "../api/testing/api-harness";
import { describeEachDatabase } from "../db/testing/test-databases";
import { createProviderResolver } from "./provider-resolver";
import { runToCompletion } from "./run-to-completion";

let upstream: Awaited<ReturnType<typeof startChatCompletionsServer>>;

beforeAll(async () => {
  upstream = await startChatCompletionsServer({ script: () => ({ type: "completion", content: "hello from the wire" }) });
});
afterAll(async () => {
  await upstream.close();
});

describeEachDatabase("provider settings changed between runs", (open) => {
  it("a rotated key is used by the next run; a deleted provider fails the next run, naming it", async () => {
    const { database } = await open();
    const api = callerFor(database);
    // One resolver for all runs, as one worker process has for its lifetime.
    const resolver = createProviderResolver({ database });
    const spec = exampleSpec("hello-agent");
    spec.settings = { defaultProvider: "rotating", defaultModel: "wire-model", stepRetries: 0 };
    const runOnce = async () => {
      const { run } = await api.runs.start({ spec, input: "hi" });
      return runToCompletion(database, run.id, { providers: resolver });
    };
    const authorizations = () => upstream.completionRequests().map((request) => request.headers.authorization);

    await api.settings.providers.upsert({ name: "rotating", kind: "openai", baseUrl: upstream.baseURL, model: "wire-model", apiKey: "rotating-key-number-one" });
    const before = upstream.completionRequests().length;
    expect((await runOnce()).status).toBe("succeeded");
    expect(authorizations().slice(before)).toEqual(["Bearer rotating-key-number-one"]);

    await api.settings.providers.upsert({ name: "rotating", kind: "openai", baseUrl: upstream.baseURL, model: "wire-model", apiKey: "rotating-key-number-two" });
    const rotated = upstream.completionRequests().length;
    expect((await runOnce()).status).toBe("succeeded");
    expect(authorizations().slice(rotated)).toEqual(["Bearer rotating-key-number-two"]);

    await api.settings.providers.delete({ name: "rotating" });
    const deleted = upstream.completionRequests().length;
    const failed = await runOnce();
    expect(failed.status).toBe("failed");
    expect(failed.error?.code).toBe("invalid_config");
    expect(failed.error?.message).toMatch(/^provider 'rotating' is not configured: no provider of that name in Settings/);
    expect(upstream.completionRequests().length, "no request after the provider was deleted").toBe(deleted);
  }, 60_000);
});
