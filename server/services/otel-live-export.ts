/**
 * Sends runs' traces (run-trace.ts) to an OTLP/HTTP endpoint while they execute, when OTEL_EXPORTER_OTLP_ENDPOINT
 * (or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) is set: @opentelemetry/exporter-trace-otlp-http's exporter (OTLP/JSON
 * over HTTP; it reads the endpoint, headers and timeout variables itself) gets each node execution's span with its
 * model and tool call spans as soon as the step is committed (the worker follows the run's stored events), and
 * the run's own span when the run has finished. Span ids are derived from the run, so a span sent again (after a
 * restart) has the same id. A failing endpoint never affects runs: errors go to the worker's error log.
 */
import { SpanKind, SpanStatusCode, TraceFlags, type HrTime } from "@opentelemetry/api";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { resourceFromAttributes } from "@opentelemetry/resources";
import type { ReadableSpan, SpanExporter } from "@opentelemetry/sdk-trace-base";
import { ATTR_SERVICE_NAME } from "@opentelemetry/semantic-conventions";
import type { Database } from "../db/database";
import { isTerminalRunStatus, RunStatus } from "../db/run-status";
import { TRACE_SCOPE } from "./otlp-json";
import { followRunEvents } from "./run-event-stream";
import { loadRunTrace, type RunTrace, type TraceSpan } from "./run-trace";

/** True when the environment names an OTLP endpoint for traces. */
export function otlpTracesConfigured(environment: Readonly<Record<string, string | undefined>> = process.env): boolean {
  return Boolean(environment.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim() || environment.OTEL_EXPORTER_OTLP_ENDPOINT?.trim());
}

function hrTime(milliseconds: number): HrTime {
  const whole = Math.floor(milliseconds);
  return [Math.floor(whole / 1000), (whole % 1000) * 1_000_000 + Math.round((milliseconds - whole) * 1_000_000)];
}

const STATUS = { unset: SpanStatusCode.UNSET, ok: SpanStatusCode.OK, error: SpanStatusCode.ERROR } as const;

/** A trace's span as the SDK's exporters take it. */
export function toReadableSpan(trace: RunTrace, span: TraceSpan): ReadableSpan {
  const context = { traceId: trace.traceId, spanId: span.spanId, traceFlags: TraceFlags.SAMPLED };
  return {
    name: span.name,
    kind: span.kind === "client" ? SpanKind.CLIENT : SpanKind.INTERNAL,
    spanContext: () => context,
    ...(span.parentSpanId === null ? {} : { parentSpanContext: { traceId: trace.traceId, spanId: span.parentSpanId, traceFlags: TraceFlags.SAMPLED } }),
    startTime: hrTime(span.startMs),
    endTime: hrTime(span.endMs),
    duration: hrTime(Math.max(0, span.endMs - span.startMs)),
    status: { code: STATUS[span.status.code], ...(span.status.message === undefined ? {} : { message: span.status.message }) },
    attributes: { ...span.attributes } as ReadableSpan["attributes"],
    links: [],
    events: [],
    ended: true,
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: TRACE_SCOPE.name, "rath.run.id": trace.runId }),
    instrumentationScope: { name: TRACE_SCOPE.name, version: TRACE_SCOPE.version },
    droppedAttributesCount: 0,
    droppedEventsCount: 0,
    droppedLinksCount: 0,
  };
}

function exportSpans(exporter: SpanExporter, spans: ReadableSpan[]): Promise<void> {
  return new Promise((resolve, reject) => {
    exporter.export(spans, (result) => (result.error === undefined && Number(result.code) === 0 ? resolve() : reject(result.error ?? new Error(`OTLP export failed (code ${result.code})`))));
  });
}

/**
 * Watches one execution of a run from `claimed.eventSeq`, the run's last event seq when it was claimed (events after
 * it are this execution's); `end` is awaited when the execution is over.
 */
export type ExecutionObserver = (runId: string, claimed: { eventSeq: number }) => { end: () => Promise<void> };

/** Sends runs' spans, each once per process. */
export interface RunTraceSender {
  /** Sends the run's spans not sent yet: committed steps with their calls, and the run span once it finished. */
  send(runId: string): Promise<void>;
  /** Follows a run's events while it executes, sending each step as it is committed. */
  observe: ExecutionObserver;
  /** Flushes and closes the exporter. */
  shutdown(): Promise<void>;
}

/** A sender over `exporter` (default: OTLP/HTTP from the environment). */
export function createRunTraceSender(database: Database, options: { exporter?: SpanExporter; onError?: (error: unknown) => void } = {}): RunTraceSender {
  const exporter = options.exporter ?? new OTLPTraceExporter();
  const onError = options.onError ?? ((error: unknown) => console.error("[rath otel] could not send spans:", error));
  const sent = new Map<string, Set<string>>();
  const queues = new Map<string, Promise<void>>();

  // Runs whose run span went out (every span of theirs is then sent); the oldest are forgotten past a bound.
  const finishedRuns = new Set<string>();
  const FINISHED_BOUND = 10_000;

  async function sendNow(runId: string): Promise<void> {
    if (finishedRuns.has(runId)) return;
    const trace = await loadRunTrace(database, runId);
    const status = RunStatus.safeParse(trace.spans[0]?.attributes["rath.run.status"]);
    const finished = status.success && isTerminalRunStatus(status.data);
    const already = sent.get(runId) ?? new Set<string>();
    const fresh = trace.spans.filter((span) => !already.has(span.spanId) && (span.parentSpanId !== null || finished));
    if (fresh.length > 0) await exportSpans(exporter, fresh.map((span) => toReadableSpan(trace, span)));
    for (const span of fresh) already.add(span.spanId);
    if (!finished) {
      sent.set(runId, already);
      return;
    }
    sent.delete(runId);
    finishedRuns.add(runId);
    if (finishedRuns.size > FINISHED_BOUND) finishedRuns.delete(finishedRuns.values().next().value as string);
  }

  function send(runId: string): Promise<void> {
    // One send at a time per run, so a span is never sent twice by overlapping calls.
    const next = (queues.get(runId) ?? Promise.resolve()).then(() => sendNow(runId)).catch(onError);
    queues.set(runId, next);
    void next.finally(() => {
      if (queues.get(runId) === next) queues.delete(runId);
    });
    return next;
  }

  const observe: ExecutionObserver = (runId, claimed) => {
    const stop = new AbortController();
    const following = (async () => {
      // From the claim's seq, not the run's seq when this starts: the execution runs meanwhile, and a step it
      // committed before a read here would not be followed (its spans then waited for the next step or the end).
      for await (const event of followRunEvents(database, runId, { afterSeq: claimed.eventSeq, signal: stop.signal })) {
        if (event.type === "run.step.completed") await send(runId);
      }
    })().catch((error: unknown) => {
      if (!stop.signal.aborted) onError(error);
    });
    return {
      async end() {
        stop.abort();
        await following;
        await send(runId);
      },
    };
  };

  return {
    send,
    observe,
    async shutdown() {
      await Promise.all(queues.values());
      await exporter.shutdown();
    },
  };
}

/** A worker's `observeExecution` option: the trace sender's when an OTLP endpoint is configured, else nothing. */
export function observeExecutionOption(database: Database, environment: Readonly<Record<string, string | undefined>> = process.env): { observeExecution?: ExecutionObserver } {
  return otlpTracesConfigured(environment) ? { observeExecution: createRunTraceSender(database).observe } : {};
}
