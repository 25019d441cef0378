import type { Chunk } from "./session/chunk";
import type { Lineage } from "./session/lineage";
import type { Usage } from "./session/usage";

/**
 * The typed stream of what a run does. Names are `noun.verb` (or `noun.sub.verb`). The server forwards these
 * to the browser, so every payload is plain JSON.
 */
export type RuntimeEvent =
  | { type: "session.created"; session_id: string; lineage: Lineage; chunk_count: number }
  | { type: "chunk.appended"; session_id: string; index: number; chunk: Chunk }
  | { type: "agent.started"; agent: string; session_id: string }
  | { type: "agent.ended"; agent: string; session_id: string; rounds: number; truncated: boolean }
  | { type: "model.request.started"; producer: string; model: string; round: number }
  | { type: "model.delta"; producer: string; model: string; text: string }
  | { type: "model.response.completed"; producer: string; model: string; usage: Usage | null; latency_ms: number; finish_reason: string }
  | { type: "model.retry.scheduled"; provider: string; attempt: number; delay_ms: number; reason: string }
  | { type: "tool.call.started"; tool: string; call_id: string; args: unknown }
  | { type: "tool.call.ended"; tool: string; call_id: string; ok: boolean; error_kind?: string; duration_ms: number }
  | { type: "memory.recalled"; store: string; query: string; hits: number }
  | { type: "memory.committed"; store: string; count: number }
  | { type: "memory.remembered"; store: string; uri: string }
  | { type: "route.decided"; selector: string; chosen: number; candidate: string | null }
  | { type: "session.compressed"; session_id: string; source_session_id: string; rows_out: number }
  | { type: "budget.exceeded"; limit: number; used: number }
  | { type: "workflow.step.started"; workflow: string; step: string }
  | { type: "workflow.step.ended"; workflow: string; step: string; session_id: string };

export type RuntimeEventType = RuntimeEvent["type"];
export type EventOf<T extends RuntimeEventType> = Extract<RuntimeEvent, { type: T }>;

/** Receives events; must not throw (a failing listener must not break a run). */
export type EventSink = (event: RuntimeEvent) => void;

/** A sink that fans out to listeners and isolates their failures. */
export class EventBus {
  private readonly listeners = new Set<EventSink>();

  on(listener: EventSink): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  readonly emit: EventSink = (event) => {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch {
        // A listener's failure is its own; the run goes on.
      }
    }
  };
}

/** A sink that drops everything. */
export const noopSink: EventSink = () => {};
