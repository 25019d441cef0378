/**
 * OTLP/JSON (the OpenTelemetry protocol's JSON encoding of an ExportTraceServiceRequest) of a run's trace, as a
 * collector's `/v1/traces` accepts it and as the run view's "OpenTelemetry traces" download writes it: trace and
 * span ids in hex, times as nanosecond strings, 64-bit integers as strings, span kind and status code as numbers.
 */
import type { RunTrace, TraceAttributeValue, TraceSpan } from "./run-trace";

/** The instrumentation scope and service name spans carry. */
export const TRACE_SCOPE = { name: "rath-studio", version: "0.1.0" } as const;

const SPAN_KIND = { internal: 1, client: 3 } as const;
const STATUS_CODE = { unset: 0, ok: 1, error: 2 } as const;

type AnyValue = { stringValue: string } | { intValue: string } | { doubleValue: number } | { boolValue: boolean } | { arrayValue: { values: AnyValue[] } };

function anyValue(value: TraceAttributeValue): AnyValue {
  if (typeof value === "string") return { stringValue: value };
  if (typeof value === "boolean") return { boolValue: value };
  if (typeof value === "number") return Number.isInteger(value) ? { intValue: String(value) } : { doubleValue: value };
  return { arrayValue: { values: value.map((entry) => ({ stringValue: entry })) } };
}

/** Attributes as OTLP's key/value list. */
export function otlpAttributes(attributes: Readonly<Record<string, TraceAttributeValue>>): Array<{ key: string; value: AnyValue }> {
  return Object.entries(attributes).map(([key, value]) => ({ key, value: anyValue(value) }));
}

function nanos(milliseconds: number): string {
  return (BigInt(Math.round(milliseconds * 1000)) * 1000n).toString();
}

function otlpSpan(traceId: string, span: TraceSpan): Record<string, unknown> {
  return {
    traceId,
    spanId: span.spanId,
    ...(span.parentSpanId === null ? {} : { parentSpanId: span.parentSpanId }),
    name: span.name,
    kind: SPAN_KIND[span.kind],
    startTimeUnixNano: nanos(span.startMs),
    endTimeUnixNano: nanos(span.endMs),
    attributes: otlpAttributes(span.attributes),
    status: { code: STATUS_CODE[span.status.code], ...(span.status.message === undefined ? {} : { message: span.status.message }) },
  };
}

/** The trace as an OTLP/JSON ExportTraceServiceRequest. */
export function toOtlpJson(trace: RunTrace): { resourceSpans: unknown[] } {
  return {
    resourceSpans: [
      {
        resource: { attributes: otlpAttributes({ "service.name": TRACE_SCOPE.name, "rath.run.id": trace.runId }) },
        scopeSpans: [{ scope: TRACE_SCOPE, spans: trace.spans.map((span) => otlpSpan(trace.traceId, span)) }],
      },
    ],
  };
}
