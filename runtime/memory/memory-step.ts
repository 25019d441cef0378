import { announceChunks, announceSession } from "../agent/announce";
import { defaultContext, type Forward, type RunContext } from "../context";
import { RathError } from "../errors";
import type { Session } from "../session/session";
import { commitFrom, DEFAULT_RECALL_K, lastAnswerText, recallInto, rememberInto } from "./memory-operations";
import type { MemoryStore, RecallOptions } from "./memory-store";
import { parseMemoryUri } from "./memory-uri";

/** What a memory step does: recall into the session, commit it, or remember one document. */
export type MemoryStepOptions = { name?: string; store: MemoryStore } & (
  | { op: "recall"; k?: number; within?: RecallOptions["within"] }
  | { op: "commit" }
  /** `text` defaults to the session's last assistant (or user) text. */
  | { op: "remember"; uri: string; text?: string }
);

/**
 * A workflow component for the canvas's Memory node. Recall adds a `memory` recall chunk on a fork (or
 * returns the input when nothing matches); commit and remember return a fork of the input with a `memory`
 * chunk appended, so the input session is never changed.
 */
export class MemoryStep implements Forward {
  readonly name: string;
  readonly options: MemoryStepOptions;

  constructor(options: MemoryStepOptions) {
    if (options.op === "remember") parseMemoryUri(options.uri);
    this.options = options;
    this.name = options.name ?? `memory.${options.op}`;
  }

  async forward(session: Session, context?: RunContext): Promise<Session> {
    const run = context ?? defaultContext();
    const options = this.options;
    if (options.op === "recall") {
      const { session: recalled } = await recallInto(session, options.store, run, { k: options.k ?? DEFAULT_RECALL_K, within: options.within, producer: this.name });
      if (recalled !== session) {
        announceSession(run, recalled, { chunkCount: session.chunks.length });
        announceChunks(run, recalled, session.chunks.length);
      }
      return recalled;
    }
    const fork = session.fork();
    announceSession(run, fork);
    let result: Session;
    if (options.op === "commit") {
      result = await commitFrom(fork, options.store, run, { producer: this.name });
    } else {
      const text = options.text ?? lastAnswerText(session);
      if (text === null) {
        throw new RathError("invalid_argument", `memory step '${this.name}': nothing to remember; expected a text option or a user/assistant message in the session`);
      }
      result = await rememberInto(fork, options.store, options.uri, text, run, { producer: this.name });
    }
    announceChunks(run, result, fork.chunks.length);
    return result;
  }
}
