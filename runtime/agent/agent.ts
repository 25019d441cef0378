import { defaultContext, type Forward, type RunContext } from "../context";
import { RathError } from "../errors";
import { parseMemoryUri } from "../memory/memory-uri";
import { commitFrom, lastAnswerText, recallInto, rememberInto, type MemoryPolicy } from "../memory/memory-operations";
import type { ChatMessage, ModelRequest, ModelResponse, Provider } from "../providers/types";
import { bindSandbox } from "../sandbox/bind";
import { isoNow, type Chunk, type ChunkMeta, type ChunkOf, type ToolCall } from "../session/chunk";
import { Session } from "../session/session";
import { addUsage, type Usage } from "../session/usage";
import { BUILTIN_TOOL_NAMES } from "../tools/builtins";
import { dispatchToolCalls } from "../tools/dispatch";
import type { EffectHooks } from "../tools/effects";
import type { CallCounter, ToolPolicy } from "../tools/policy";
import { ToolRegistry, type BuiltinSelection } from "../tools/registry";
import type { Tool } from "../tools/types";
import { announceChunks, announceSession } from "./announce";
import { completer } from "./complete-with-events";
import { appendMessages, sessionToMessages } from "./session-messages";
import type { TokenBudget } from "./token-budget";

/** Default round limit of the agent loop (SPEC §5). */
export const DEFAULT_MAX_ROUNDS = 64;

/** Operator name of an agent loop's output (the reference's). */
export const LOOP_OPERATOR = "run_session_loop";

/**
 * Key in `RunContext.resources` under which a runner (the durable engine) puts the run's `EffectHooks`;
 * the agent passes them to tool dispatch so side-effecting calls go through the effect ledger.
 */
export const TOOL_EFFECTS_RESOURCE = "rath.tool_effects";

/** How an Agent is configured; `clone(changes)` takes the same fields. */
export interface AgentOptions {
  name: string;
  /** The agent's system prompt, held in its own root session (sent before the conversation). */
  instructions?: string;
  provider: Provider;
  /** Model name; the provider's default otherwise. */
  model?: string;
  tools?: readonly Tool[];
  /** Which built-in tools the model sees (passed to `ToolRegistry.of`). */
  builtins?: BuiltinSelection;
  policy?: ToolPolicy;
  /** Round limit (default 64); reaching it ends the loop with `loop.truncated = true`. */
  maxRounds?: number;
  memory?: MemoryPolicy;
  tokenBudget?: TokenBudget;
  temperature?: number;
  maxTokens?: number;
}

/**
 * The assistant chunk of a model response. Its meta is built in one literal, in the key order `makeChunk` gives
 * (`at`, producer, model, latency_ms, usage when reported), so files and events read the same.
 */
function assistantChunk(response: ModelResponse, producer: string): ChunkOf<"assistant"> {
  const meta: ChunkMeta = { at: isoNow(), producer, model: response.model, latency_ms: response.latencyMs };
  if (response.usage) meta.usage = response.usage;
  return { kind: "assistant", payload: { content: response.content, tool_calls: response.toolCalls.length > 0 ? response.toolCalls : null }, meta };
}

/** True when a call names a built-in tool (its sandbox is bound first). */
function callsBuiltin(calls: readonly ToolCall[]): boolean {
  for (let i = 0; i < calls.length; i++) if (BUILTIN_TOOL_NAMES.includes((calls[i] as ToolCall).function.name)) return true;
  return false;
}

/**
 * A reusable `Session -> Session` transform (PyTorch's nn.Linear): one completion per round, tool calls
 * dispatched and their results appended, until the model answers without tool calls. Its output session has
 * parents `[input.id, agent.id]` and kind `op_session_loop`; see runtime/agent/README.md for the data flow.
 */
export class Agent implements Forward {
  readonly name: string;
  readonly options: Readonly<AgentOptions>;
  readonly model: string;
  readonly maxRounds: number;
  /** The agent's own root session (its instructions, or empty); its id is the agent's id. */
  readonly session: Session;
  readonly registry: ToolRegistry;

  constructor(options: AgentOptions) {
    if (!options.name) throw new RathError("invalid_workflow", "an Agent needs a non-empty name");
    const maxRounds = options.maxRounds ?? DEFAULT_MAX_ROUNDS;
    if (!Number.isInteger(maxRounds) || maxRounds < 1) {
      throw new RathError("invalid_workflow", `agent '${options.name}': maxRounds must be an integer >= 1; found ${String(options.maxRounds)}`);
    }
    if (options.tokenBudget && !(options.tokenBudget.limit >= 0)) {
      throw new RathError("invalid_workflow", `agent '${options.name}': tokenBudget.limit must be >= 0; found ${options.tokenBudget.limit}`);
    }
    if (options.memory?.remember) parseMemoryUri(options.memory.remember.uri);
    this.name = options.name;
    this.options = Object.freeze({ ...options });
    this.model = options.model ?? options.provider.defaultModel;
    this.maxRounds = maxRounds;
    this.session = options.instructions
      ? Session.create("system", options.instructions, { producer: options.name })
      : Session.create("empty", "", { producer: options.name });
    this.registry = ToolRegistry.of([...(options.tools ?? [])], { builtins: options.builtins });
  }

  /** The agent's id: its root session's id (the loop output's second parent). */
  get id(): string {
    return this.session.id;
  }

  /** A new agent with some options changed (and a new root session, hence a new id). */
  clone(changes: Partial<AgentOptions> = {}): Agent {
    return new Agent({ ...this.options, ...changes });
  }

  /**
   * Makes each round's request: a new object per round (a provider may keep it), with the fields that never
   * change between rounds worked out once.
   */
  private requestShape(): (messages: readonly ChatMessage[]) => ModelRequest {
    const schemas = this.registry.schemas();
    const { temperature, maxTokens } = this.options;
    const model = this.model;
    const caller = this.name;
    return (messages) => {
      const request: ModelRequest = { model, messages };
      if (schemas.length > 0) request.tools = schemas;
      if (temperature !== undefined) request.temperature = temperature;
      if (maxTokens !== undefined) request.maxTokens = maxTokens;
      request.caller = caller;
      return request;
    };
  }

  async forward(input: Session, context?: RunContext): Promise<Session> {
    const run = context ?? defaultContext();
    run.emit({ type: "agent.started", agent: this.name, session_id: input.id });
    announceSession(run, this.session);

    let working = input;
    const memory = this.options.memory;
    if (memory && memory.recall !== false) {
      const recallOptions = typeof memory.recall === "object" ? memory.recall : {};
      working = (await recallInto(input, memory.store, run, { ...recallOptions, producer: this.name })).session;
      if (working !== input) {
        announceSession(run, working, { chunkCount: input.chunks.length });
        announceChunks(run, working, input.chunks.length);
      }
    }

    let out = Session.derive({
      chunks: working.chunks,
      parents: [working.id, this.id],
      kind: "op_session_loop",
      operator: LOOP_OPERATOR,
      placementFrom: working,
    });
    announceSession(run, out);
    // The recall fork's sandbox reference passes to `out` (derive retained its own).
    if (working !== input) await working.release();
    // The model's view of `out`, kept in step with it so a round costs O(new chunks), not O(session): each
    // request passes this same array, which only grows between calls (ModelRequest.messages says so).
    const messages = sessionToMessages(out, this.session);
    const append = (session: Session, chunks: readonly Chunk[]): Session => {
      const from = session.chunks.length;
      const next = session.append(...chunks);
      // The chunks appended are these very objects (append freezes them in place): announce them from here.
      for (let i = 0; i < chunks.length; i++) run.emit({ type: "chunk.appended", session_id: next.id, index: from + i, chunk: chunks[i] as Chunk });
      appendMessages(messages, chunks);
      return next;
    };

    const request = this.requestShape();
    const complete = completer(this.options.provider, run, this.name, this.model);
    const callCounter: CallCounter = { count: 0 };
    let rounds = 0;
    let truncated = false;
    let loopUsage: Usage | null = null;
    let budgetFired = false;
    try {
      for (;;) {
        if (rounds >= this.maxRounds) {
          truncated = true;
          break;
        }
        if (run.signal?.aborted) throw new RathError("aborted", `agent '${this.name}' was aborted after ${rounds} round(s)`);
        rounds += 1;
        const response = await complete(request(messages), rounds);
        out = append(out, [assistantChunk(response, this.name)]);

        const previousTotal = loopUsage?.total_tokens ?? 0;
        loopUsage = addUsage(loopUsage, response.usage);
        const budget = this.options.tokenBudget;
        if (budget && !budgetFired && loopUsage && previousTotal <= budget.limit && loopUsage.total_tokens > budget.limit) {
          budgetFired = true;
          const used = loopUsage.total_tokens;
          run.emit({ type: "budget.exceeded", limit: budget.limit, used });
          const decision = budget.onExceeded
            ? budget.onExceeded({ agent: this.name, limit: budget.limit, used, usage: loopUsage, session_id: out.id })
            : "abort";
          if (decision === "abort") {
            throw new RathError("budget_exceeded", `agent '${this.name}' used ${used} tokens, over its budget of ${budget.limit}`, {
              details: { agent: this.name, limit: budget.limit, used, session_id: out.id },
            });
          }
        }

        if (response.toolCalls.length === 0) break;
        if (!out.handle && callsBuiltin(response.toolCalls)) {
          out = await bindSandbox(out);
        }
        const results = await dispatchToolCalls(response.toolCalls, {
          registry: this.registry,
          session: out,
          run,
          producer: this.name,
          policy: this.options.policy,
          callCounter,
          effects: run.resources?.get(TOOL_EFFECTS_RESOURCE) as EffectHooks | undefined,
        });
        out = append(out, results);
      }
      const answer = memory?.remember ? lastAnswerText(out) : null;
      if (memory?.remember && answer !== null) {
        const before = out.chunks.length;
        out = await rememberInto(out, memory.store, memory.remember.uri, answer, run, { producer: this.name });
        announceChunks(run, out, before);
      }
      if (memory?.commit) {
        const before = out.chunks.length;
        out = await commitFrom(out, memory.store, run, { producer: this.name });
        announceChunks(run, out, before);
      }
    } catch (error) {
      await out.release();
      throw error;
    }
    if (truncated) out = out.withExtras([["loop.truncated", true]]);
    run.emit({ type: "agent.ended", agent: this.name, session_id: out.id, rounds, truncated });
    return out;
  }
}
