import { defaultContext, type Forward, type RunContext } from "../context";
import { RathError } from "../errors";
import type { Provider } from "../providers/types";
import { makeChunk, type ChunkMeta } from "../session/chunk";
import { Session } from "../session/session";
import { announceChunks, announceSession } from "./announce";
import { completeWithEvents } from "./complete-with-events";
import { DEFAULT_SELECTOR_INSTRUCTIONS, selectorMenu } from "./prompts";
import { releaseIntermediates } from "./release-intermediates";
import { sessionToMessages } from "./session-messages";
import { Workflow, type Component } from "./workflow";

/** One workflow a selector can choose; the model sees `index: description`. */
export interface SelectorCandidate {
  name: string;
  description: string;
  workflow: Component;
}

/** Options of a Selector. */
export interface SelectorOptions {
  name: string;
  provider: Provider;
  model?: string;
  /** The routing rubric (a system message); a default router instruction otherwise. */
  instructions?: string;
  candidates: readonly SelectorCandidate[];
  temperature?: number;
}

/** A selector's decision: the session with its `route` chunk, the chosen index (-1 = stop) and the workflow. */
export interface SelectorDecision {
  session: Session;
  chosen: number;
  workflow: Component;
  reply: string;
}

/** The first integer in the reply if it names a candidate, otherwise -1 (stop). */
export function parseSelectorReply(reply: string, candidateCount: number): number {
  const match = /-?\d+/.exec(reply);
  if (!match) return -1;
  const index = Number.parseInt(match[0], 10);
  return index >= 0 && index < candidateCount ? index : -1;
}

/**
 * Runtime routing (the `if`/`while` of the programming model): one completion without tools over the session
 * and a numbered menu of candidates; the first integer in the reply picks one, anything else stops with the
 * empty workflow. The decision is recorded as a `route` chunk.
 */
export class Selector implements Forward {
  readonly name: string;
  readonly provider: Provider;
  readonly model: string;
  readonly instructions: string;
  readonly candidates: readonly SelectorCandidate[];
  readonly temperature: number | undefined;
  /** The selector's own root session (its instructions, sent as the first message). */
  readonly session: Session;

  constructor(options: SelectorOptions) {
    if (!options.name) throw new RathError("invalid_workflow", "a Selector needs a non-empty name");
    this.name = options.name;
    this.provider = options.provider;
    this.model = options.model ?? options.provider.defaultModel;
    this.instructions = options.instructions ?? DEFAULT_SELECTOR_INSTRUCTIONS;
    this.candidates = Object.freeze([...options.candidates]);
    this.temperature = options.temperature;
    this.session = Session.create("system", this.instructions, { producer: this.name });
  }

  /** Id of the selector's root session. */
  get id(): string {
    return this.session.id;
  }

  /**
   * Asks the model (no completion when there are no candidates) and returns a new session: the input's chunks
   * plus one `route` chunk `{selector, candidates, chosen, reply}`; parents `[input.id]`, `op_fork`,
   * operator "select_session", extras `route.selector` and `route.chosen`; its usage is the routing completion's.
   */
  async decide(session: Session, context?: RunContext): Promise<SelectorDecision> {
    const run = context ?? defaultContext();
    const descriptions = this.candidates.map((candidate) => candidate.description || candidate.name);
    let reply = "";
    let meta: Partial<ChunkMeta> = { producer: this.name };
    if (this.candidates.length > 0) {
      const response = await completeWithEvents(
        this.provider,
        {
          model: this.model,
          messages: [...sessionToMessages(session, this.session), { role: "user", content: selectorMenu(descriptions) }],
          ...(this.temperature === undefined ? {} : { temperature: this.temperature }),
        },
        run,
        { producer: this.name, round: 0 },
      );
      reply = response.content ?? "";
      meta = { producer: this.name, model: response.model, latency_ms: response.latencyMs, ...(response.usage ? { usage: response.usage } : {}) };
    }
    const chosen = parseSelectorReply(reply, this.candidates.length);
    const route = makeChunk(
      "route",
      {
        selector: this.name,
        candidates: this.candidates.map((candidate, index) => ({ index, name: candidate.name, description: candidate.description })),
        chosen,
        reply,
      },
      meta,
    );
    const base = Session.derive({
      chunks: session.chunks,
      parents: [session.id],
      kind: "op_fork",
      operator: "select_session",
      extras: [
        ["route.selector", this.name],
        ["route.chosen", chosen],
      ],
      placementFrom: session,
    });
    announceSession(run, base);
    const decided = base.append(route);
    announceChunks(run, decided, base.chunks.length);
    const candidate = chosen >= 0 ? this.candidates[chosen] : undefined;
    run.emit({ type: "route.decided", selector: this.name, chosen, candidate: candidate?.name ?? null });
    return { session: decided, chosen, workflow: candidate?.workflow ?? Workflow.empty(), reply };
  }

  /** Decides, then runs the chosen workflow on the decided session (the empty workflow returns it as is). */
  async forward(session: Session, context?: RunContext): Promise<Session> {
    const run = context ?? defaultContext();
    const decision = await this.decide(session, run);
    let output: Session;
    try {
      output = await decision.workflow.forward(decision.session, run);
    } catch (error) {
      await releaseIntermediates([decision.session], [session]);
      throw error;
    }
    await releaseIntermediates([decision.session], [session, output]);
    return output;
  }
}
