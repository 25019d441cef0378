import { defaultContext, type Forward, type RunContext } from "../context";
import { RathError } from "../errors";
import type { Provider } from "../providers/types";
import { makeChunk } from "../session/chunk";
import { Session } from "../session/session";
import { announceChunks, announceSession } from "./announce";
import { completeWithEvents } from "./complete-with-events";
import { compressorRequest, DEFAULT_COMPRESSOR_INSTRUCTIONS } from "./prompts";
import { sessionToMessages } from "./session-messages";

/** Options of a Compressor. */
export interface CompressorOptions {
  name?: string;
  provider: Provider;
  model?: string;
  /** What the summary must keep; a default instruction otherwise. */
  instructions?: string;
  temperature?: number;
}

/** Operator name of a compressed session (the reference's). */
export const COMPRESS_OPERATOR = "run_session_compress";

/**
 * Summarises a session with one completion without tools into a new session holding a single `user` chunk
 * (SPEC §2, §5). Lineage: parents `[input.id, compressor.id]`, `op_session_compress`, operator
 * "run_session_compress", extras `compression.lossy = true`, `compression.rows_out = 1`,
 * `compression.rows_in` and `compression.source_session_id`; the summary chunk's `meta.source_session_id`
 * names the summarised session too, so nothing is lost from the graph.
 */
export class Compressor implements Forward {
  readonly name: string;
  readonly provider: Provider;
  readonly model: string;
  readonly instructions: string;
  readonly temperature: number | undefined;
  /** The compressor's own root session (its instructions); the compressed session's second parent. */
  readonly session: Session;

  constructor(options: CompressorOptions) {
    this.name = options.name ?? "compressor";
    this.provider = options.provider;
    this.model = options.model ?? options.provider.defaultModel;
    this.instructions = options.instructions ?? DEFAULT_COMPRESSOR_INSTRUCTIONS;
    this.temperature = options.temperature;
    this.session = Session.create("system", this.instructions, { producer: this.name });
  }

  /** Id of the compressor's root session. */
  get id(): string {
    return this.session.id;
  }

  async forward(session: Session, context?: RunContext): Promise<Session> {
    const run = context ?? defaultContext();
    const response = await completeWithEvents(
      this.provider,
      {
        model: this.model,
        messages: [...sessionToMessages(session), { role: "user", content: compressorRequest(this.instructions) }],
        ...(this.temperature === undefined ? {} : { temperature: this.temperature }),
      },
      run,
      { producer: this.name, round: 0 },
    );
    if (response.toolCalls.length > 0) {
      throw new RathError("provider_error", `compressor '${this.name}': the model returned tool calls, but compression offers no tools`);
    }
    if (response.finishReason === "length") {
      throw new RathError(
        "provider_error",
        `compressor '${this.name}': the summary hit the output-token limit (finish_reason 'length'); a truncated summary would silently drop history`,
      );
    }
    const summary = (response.content ?? "").trim();
    if (summary === "") throw new RathError("provider_error", `compressor '${this.name}': expected a summary from the model; found empty content`);
    const chunk = makeChunk(
      "user",
      { content: summary },
      {
        producer: this.name,
        model: response.model,
        latency_ms: response.latencyMs,
        source_session_id: session.id,
        ...(response.usage ? { usage: response.usage } : {}),
      },
    );
    announceSession(run, this.session);
    const base = Session.derive({
      chunks: [],
      parents: [session.id, this.session.id],
      kind: "op_session_compress",
      operator: COMPRESS_OPERATOR,
      extras: [
        ["compression.lossy", true],
        ["compression.rows_out", 1],
        ["compression.rows_in", session.chunks.length],
        ["compression.source_session_id", session.id],
      ],
      placementFrom: session,
    });
    announceSession(run, base);
    const compressed = base.append(chunk);
    announceChunks(run, compressed, 0);
    run.emit({ type: "session.compressed", session_id: compressed.id, source_session_id: session.id, rows_out: 1 });
    return compressed;
  }
}
