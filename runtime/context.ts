import { noopSink, type EventSink } from "./events";

/**
 * What a run passes down through `forward(session, context)`: where events go and how to stop.
 * Components that need more (a token budget, MCP connections) read optional fields set by the runner.
 */
export interface RunContext {
  readonly emit: EventSink;
  readonly signal?: AbortSignal;
  /** Shared per-run state (e.g. one MCP connection per server for the life of a run). */
  readonly resources?: Map<string, unknown>;
}

export function defaultContext(partial: Partial<RunContext> = {}): RunContext {
  return { emit: partial.emit ?? noopSink, signal: partial.signal, resources: partial.resources ?? new Map() };
}

/** Every component has this one contract. */
export interface Forward {
  forward(session: import("./session/session").Session, context?: RunContext): Promise<import("./session/session").Session>;
}
