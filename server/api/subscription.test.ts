/**
 * `runs.onEvents` over a real HTTP server (tRPC's node:http adapter) and the raw server-sent-event stream: events
 * arrive in order with their seq as the SSE id, the stream ends when the run is terminal, and a reconnect with
 * Last-Event-ID resumes after that event without duplicates.
 */
import type { AddressInfo } from "node:net";
import { createTRPCClient, httpBatchLink, TRPCClientError } from "@trpc/client";
import { createHTTPServer } from "@trpc/server/adapters/standalone";
import { expect, it } from "vitest";
import { ANONYMOUS_LOOPBACK } from "../auth/principal";
import { describeEachDatabase } from "../db/testing/test-databases";
import type { Database } from "../db/database";
import { runToCompletion } from "../engine/run-to-completion";
import { QUEUE_ONLY_EXECUTOR } from "../services/run-executor";
import { appRouter, type AppRouter } from "./root";
import { callerFor, exampleSpec } from "./testing/api-harness";

interface SseMessage {
  id: string | undefined;
  event: string;
  data: string;
}

async function serve(database: Database): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createHTTPServer({ router: appRouter, createContext: () => ({ database, executor: QUEUE_ONLY_EXECUTOR, principal: ANONYMOUS_LOOPBACK }) });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Reads an SSE response until the server ends the stream (tRPC sends `event: return` when the generator returns). */
async function readStream(response: Response, onMessage: (message: SseMessage) => void = () => undefined): Promise<SseMessage[]> {
  expect(response.headers.get("content-type")).toContain("text/event-stream");
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  const messages: SseMessage[] = [];
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return messages;
    buffer += decoder.decode(value, { stream: true });
    let end = buffer.indexOf("\n\n");
    while (end !== -1) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const message: SseMessage = { id: undefined, event: "message", data: "" };
      for (const line of block.split("\n")) {
        if (line.startsWith("id:")) message.id = line.slice(3).trim();
        else if (line.startsWith("event:")) message.event = line.slice(6).trim();
        else if (line.startsWith("data:")) message.data += line.slice(5).trimStart();
      }
      messages.push(message);
      onMessage(message);
      if (message.event === "return" || message.event === "serialized-error") {
        await reader.cancel();
        return messages;
      }
      end = buffer.indexOf("\n\n");
    }
  }
}

function subscribe(url: string, input: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${url}/runs.onEvents?input=${encodeURIComponent(JSON.stringify(input))}`, {
    headers: { accept: "text/event-stream", ...headers },
    signal: AbortSignal.timeout(20_000),
  });
}

function runEvents(messages: SseMessage[]): Array<{ id: string | undefined; seq: number; type: string }> {
  return messages
    .filter((message) => message.event === "message" && message.id !== undefined)
    .map((message) => {
      const event = JSON.parse(message.data) as { seq: number; type: string };
      return { id: message.id, seq: event.seq, type: event.type };
    });
}

describeEachDatabase("runs.onEvents over SSE", (open) => {
  it("streams a live run's events in order and ends when the run is terminal", async () => {
    const { database } = await open();
    const server = await serve(database);
    try {
      const { run } = await callerFor(database).runs.start({ spec: exampleSpec("hello-agent"), input: "live" });
      // The run executes only once the first event arrived, so everything after it is delivered live.
      let execution: ReturnType<typeof runToCompletion> | undefined;
      const messages = await readStream(await subscribe(server.url, { runId: run.id }), (message) => {
        if (message.event === "message" && execution === undefined) execution = runToCompletion(database, run.id);
      });
      if (execution === undefined) throw new Error("no event arrived before the stream ended");
      const finished = await execution;
      expect(messages[messages.length - 1]?.event).toBe("return");
      const events = runEvents(messages);
      expect(events.map((event) => event.seq)).toEqual(Array.from({ length: finished.lastEventSeq }, (_, index) => index + 1));
      expect(events.every((event) => event.id === String(event.seq))).toBe(true);
      expect(events[0]?.type).toBe("run.created");
      expect(events.map((event) => event.type)).toContain("run.execution.completed");
    } finally {
      await server.close();
    }
  });

  it("resumes after the Last-Event-ID (or afterSeq) without repeating an event", async () => {
    const { database } = await open();
    const server = await serve(database);
    try {
      const { run } = await callerFor(database).runs.start({ spec: exampleSpec("hello-agent"), input: "resume" });
      const finished = await runToCompletion(database, run.id);
      const all = runEvents(await readStream(await subscribe(server.url, { runId: run.id })));
      expect(all).toHaveLength(finished.lastEventSeq);

      const resumed = runEvents(await readStream(await subscribe(server.url, { runId: run.id }, { "last-event-id": "4" })));
      expect(resumed.map((event) => event.seq)).toEqual(all.slice(4).map((event) => event.seq));
      const fromInput = runEvents(await readStream(await subscribe(server.url, { runId: run.id, lastEventId: "6" })));
      expect(fromInput[0]?.seq).toBe(7);
      const fromAfterSeq = runEvents(await readStream(await subscribe(server.url, { runId: run.id, afterSeq: finished.lastEventSeq })));
      expect(fromAfterSeq).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it("reports an unknown run as a NOT_FOUND error event", async () => {
    const { database } = await open();
    const server = await serve(database);
    try {
      const messages = await readStream(await subscribe(server.url, { runId: "run_missing" }));
      const error = messages.find((message) => message.event === "serialized-error");
      expect(error).toBeDefined();
      const parsed = JSON.parse(error?.data ?? "{}") as { data?: { code?: string }; message?: string };
      expect(parsed.data?.code).toBe("not_found");
      expect(error?.data).not.toContain("stack");
    } finally {
      await server.close();
    }
  });
});

describeEachDatabase("@trpc/client over HTTP", (open) => {
  it("receives JSON views and, for errors, the mapped data (problems, fieldErrors) without a stack", async () => {
    const { database } = await open();
    const server = await serve(database);
    try {
      const client = createTRPCClient<AppRouter>({ links: [httpBatchLink({ url: server.url })] });
      const created = await client.workflows.create.mutate({ name: "client", spec: exampleSpec("hello-agent") });
      expect(typeof created.workflow.createdAt).toBe("string");
      const [listed, detail] = await Promise.all([client.workflows.list.query(), client.workflows.get.query({ workflowId: created.workflow.id })]);
      expect(listed.map((workflow) => workflow.id)).toEqual([created.workflow.id]);
      expect(detail.head?.specSha256).toBe(created.head?.specSha256);

      const error = await client.workflows.saveRevision.mutate({ workflowId: created.workflow.id, spec: { version: 1, nodes: [], edges: [] } }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(TRPCClientError);
      const data = (error as TRPCClientError<AppRouter>).data;
      expect(data).toMatchObject({ code: "invalid_workflow", trpcCode: "BAD_REQUEST", httpStatus: 422, path: "workflows.saveRevision" });
      expect(data?.problems?.map((problem) => problem.code)).toEqual(expect.arrayContaining(["missing_input", "missing_output"]));
      expect(JSON.stringify(data)).not.toContain("stack");

      const invalid = await client.runs.list.query({ limit: 0 }).catch((caught: unknown) => caught);
      expect((invalid as TRPCClientError<AppRouter>).data?.fieldErrors).toHaveProperty("limit");
    } finally {
      await server.close();
    }
  });
});
