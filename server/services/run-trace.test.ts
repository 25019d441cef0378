/**
 * A run as OpenTelemetry traces: the OTLP/JSON export (transfer.exportTrace) has the run span at the root, one
 * span per node execution under it, and the model and tool call spans under the node that made them, with the
 * GenAI attributes and the tokens the run reported; and a worker configured with an OTLP/HTTP exporter sends the
 * same spans, with the same ids and parents, to a local receiver started by the test.
 */
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { afterEach, describe, expect, it } from "vitest";
import { createDemoProvider } from "../../runtime/providers/demo-provider";
import type { Provider } from "../../runtime/providers/types";
import { callerFor, exampleSpec } from "../api/testing/api-harness";
import { describeEachDatabase } from "../db/testing/test-databases";
import { runToCompletion } from "../engine/run-to-completion";
import { createWorker, type Worker } from "../engine/worker";
import { createRunTraceSender, observeExecutionOption, otlpTracesConfigured } from "./otel-live-export";

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: Array<{ key: string; value: { stringValue?: string; intValue?: string | number; arrayValue?: unknown } }>;
  status: { code?: number };
}
interface OtlpRequest {
  resourceSpans: Array<{ resource: { attributes: OtlpSpan["attributes"] }; scopeSpans: Array<{ scope: { name: string }; spans: OtlpSpan[] }> }>;
}

function spansOf(request: OtlpRequest): OtlpSpan[] {
  return request.resourceSpans.flatMap((resource) => resource.scopeSpans.flatMap((scope) => scope.spans));
}

function attribute(span: OtlpSpan, key: string): string | number | undefined {
  const value = span.attributes.find((entry) => entry.key === key)?.value;
  if (value === undefined) return undefined;
  return value.stringValue ?? (value.intValue === undefined ? undefined : Number(value.intValue));
}

/** The structure every export of a finished hello-agent run must have. */
function expectRunStructure(spans: readonly OtlpSpan[], tokensUsed: number): void {
  const roots = spans.filter((span) => span.parentSpanId === undefined || span.parentSpanId === "");
  expect(roots).toHaveLength(1);
  const root = roots[0] as OtlpSpan;
  expect(attribute(root, "gen_ai.operation.name")).toBe("invoke_workflow");
  expect(root.name).toBe(`invoke_workflow ${String(attribute(root, "gen_ai.workflow.name"))}`);
  expect(new Set(spans.map((span) => span.traceId)).size).toBe(1);
  expect(new Set(spans.map((span) => span.spanId)).size).toBe(spans.length);

  const byId = new Map(spans.map((span) => [span.spanId, span]));
  const steps = spans.filter((span) => span.parentSpanId === root.spanId);
  expect(steps.length).toBeGreaterThanOrEqual(3);
  for (const step of steps) expect(attribute(step, "rath.node.id"), step.name).toBeDefined();
  const agents = steps.filter((step) => attribute(step, "rath.node.type") === "agent");
  expect(agents.length).toBeGreaterThan(0);
  for (const agent of agents) {
    expect(attribute(agent, "gen_ai.operation.name")).toBe("invoke_agent");
    expect(agent.name).toBe(`invoke_agent ${String(attribute(agent, "gen_ai.agent.name"))}`);
  }

  const chats = spans.filter((span) => attribute(span, "gen_ai.operation.name") === "chat");
  const tools = spans.filter((span) => attribute(span, "gen_ai.operation.name") === "execute_tool");
  expect(chats.length).toBeGreaterThan(0);
  expect(tools.length).toBeGreaterThan(0);
  for (const call of [...chats, ...tools]) {
    const parent = byId.get(call.parentSpanId ?? "");
    expect(parent?.parentSpanId, call.name).toBe(root.spanId);
    expect(attribute(parent as OtlpSpan, "rath.node.type"), call.name).toBe("agent");
    expect(BigInt(call.startTimeUnixNano) <= BigInt(call.endTimeUnixNano)).toBe(true);
  }
  for (const chat of chats) {
    expect(chat.kind).toBe(3);
    expect(chat.name).toBe(`chat ${String(attribute(chat, "gen_ai.request.model"))}`);
  }
  const reported = chats.reduce((sum, chat) => sum + Number(attribute(chat, "gen_ai.usage.input_tokens") ?? 0) + Number(attribute(chat, "gen_ai.usage.output_tokens") ?? 0), 0);
  expect(reported).toBe(tokensUsed);
  for (const tool of tools) {
    expect(tool.name).toBe(`execute_tool ${String(attribute(tool, "gen_ai.tool.name"))}`);
    expect(attribute(tool, "gen_ai.tool.call.id")).toBeTypeOf("string");
  }
}

describe("OTLP endpoint configuration", () => {
  it("sends only when an endpoint is named", () => {
    expect(otlpTracesConfigured({})).toBe(false);
    expect(otlpTracesConfigured({ OTEL_EXPORTER_OTLP_ENDPOINT: " " })).toBe(false);
    expect(otlpTracesConfigured({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318" })).toBe(true);
    expect(otlpTracesConfigured({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://127.0.0.1:4318/v1/traces" })).toBe(true);
  });
});

describeEachDatabase("run traces", (open) => {
  let worker: Worker | null = null;
  let closeReceiver: (() => Promise<void>) | null = null;
  afterEach(async () => {
    await worker?.stop();
    worker = null;
    await closeReceiver?.();
    closeReceiver = null;
  });

  it("exports a finished run as OTLP/JSON: run → node executions → model and tool calls, with GenAI attributes", async () => {
    const { database } = await open();
    const api = callerFor(database);
    const { run } = await api.runs.start({ spec: exampleSpec("hello-agent"), input: "List the workspace please." });
    const finished = await runToCompletion(database, run.id);
    expect(finished.status).toBe("succeeded");
    const exported = (await api.transfer.exportTrace({ runId: run.id })) as OtlpRequest;
    expect(exported.resourceSpans[0]?.scopeSpans[0]?.scope.name).toBe("rath-studio");
    const spans = spansOf(exported);
    expectRunStructure(spans, finished.tokensUsed);
    const root = spans.find((span) => span.parentSpanId === undefined) as OtlpSpan;
    expect(attribute(root, "rath.run.id")).toBe(run.id);
    expect(root.status.code).toBe(1);
    // Exporting again gives the same ids (derived from the run), so a receiver can tell a span sent twice.
    expect(spansOf((await api.transfer.exportTrace({ runId: run.id })) as OtlpRequest).map((span) => span.spanId)).toEqual(spans.map((span) => span.spanId));
  });

  it("a worker with an OTLP/HTTP exporter sends every span, as the export has them, to a local receiver", async () => {
    const { database } = await open();
    const received: OtlpRequest[] = [];
    let firstReceived: () => void = () => undefined;
    const firstRequest = new Promise<void>((resolve) => (firstReceived = resolve));
    const receiver = createServer((request: IncomingMessage, response) => {
      const parts: Buffer[] = [];
      request.on("data", (part: Buffer) => parts.push(part));
      request.on("end", () => {
        if (request.url === "/v1/traces" && request.method === "POST") {
          received.push(JSON.parse(Buffer.concat(parts).toString("utf8")) as OtlpRequest);
          firstReceived();
        }
        response.writeHead(200, { "content-type": "application/json" }).end("{}");
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    closeReceiver = () => new Promise((resolve) => receiver.close(() => resolve()));
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/v1/traces`;

    const sender = createRunTraceSender(database, { exporter: new OTLPTraceExporter({ url }) });
    // The model answers only once the receiver has the first spans (the Input step's, sent when it committed), so
    // the run cannot end before its follower sends: on a loaded machine it otherwise caught up after the run ended
    // and sent everything in one request.
    const demo = createDemoProvider();
    const gated: Provider = {
      name: demo.name,
      kind: demo.kind,
      defaultModel: demo.defaultModel,
      complete: async (request, options) => {
        await firstRequest;
        return demo.complete(request, options);
      },
    };
    worker = createWorker({ db: database, pollMs: 50, observeExecution: sender.observe, providers: async () => gated });
    const api = callerFor(database);
    const { run } = await api.runs.start({ spec: exampleSpec("hello-agent"), input: "List the workspace please." });
    worker.start();
    const deadline = Date.now() + 60_000;
    const exportedIds = async () => spansOf((await api.transfer.exportTrace({ runId: run.id })) as OtlpRequest);
    let expected: OtlpSpan[] = [];
    while (Date.now() < deadline) {
      const status = (await api.runs.get({ runId: run.id })).run.status;
      if (status === "succeeded") {
        expected = await exportedIds();
        if (received.flatMap(spansOf).length >= expected.length) break;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await sender.shutdown();
    const sent = received.flatMap(spansOf);
    expect(sent.map((span) => span.spanId).sort()).toEqual(expected.map((span) => span.spanId).sort());
    expect(sent.map((span) => [span.spanId, span.parentSpanId ?? "", span.name]).sort()).toEqual(expected.map((span) => [span.spanId, span.parentSpanId ?? "", span.name]).sort());
    // Node executions went out before the run span did (sent as their steps committed, the run span at the end).
    expect(received.length).toBeGreaterThan(1);
    expect(spansOf(received[received.length - 1] as OtlpRequest).some((span) => span.parentSpanId === undefined || span.parentSpanId === "")).toBe(true);
    expect(spansOf(received[0] as OtlpRequest).some((span) => span.parentSpanId === undefined || span.parentSpanId === "")).toBe(false);
    expectRunStructure(sent, (await api.runs.get({ runId: run.id })).run.tokensUsed);
    const resource = received[0]?.resourceSpans[0]?.resource.attributes.find((entry) => entry.key === "service.name");
    expect(resource?.value.stringValue).toBe("rath-studio");
  });

  it("observeExecutionOption adds an observer only when an endpoint is configured", async () => {
    const { database } = await open();
    expect(observeExecutionOption(database, {})).toEqual({});
    expect(typeof observeExecutionOption(database, { OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:1" }).observeExecution).toBe("function");
  });
});
