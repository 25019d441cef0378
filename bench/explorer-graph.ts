/**
 * The run the explorer benchmark opens: one question fanned out into parallel threads, each a sequence of agent
 * loops (tool call + result per round, then an answer), forks that loop and merge back, and the odd failed tool
 * call — `sessions` sessions holding at least `chunks` own chunks, as a run bundle for `importBundle` (the store
 * writes it; no SQL by hand). Deterministic.
 */
import { buildBundle } from "../runtime/files/bundle-writer";
import { makeChunk, type Chunk } from "../runtime/session/chunk";
import { Session } from "../runtime/session/session";
import type { Usage } from "../runtime/session/usage";

const AT = "2026-11-30T00:00:00.000Z";
const THREADS = 400;

function usage(prompt: number, completion: number): Usage {
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}

function rounds(agent: string, count: number, failEvery: number, serial: number): Chunk[] {
  const chunks: Chunk[] = [];
  for (let round = 0; round < count; round++) {
    const id = `call_${serial}_${round}`;
    const failed = failEvery > 0 && (serial + round) % failEvery === 0;
    chunks.push(
      makeChunk("assistant", { content: null, tool_calls: [{ id, type: "function", function: { name: "search", arguments: `{"query":"step ${round} of ${serial}"}` } }] }, { at: AT, producer: agent, model: "bench-model", usage: usage(150 + round, 20), latency_ms: 420 }),
      makeChunk(
        "tool_result",
        { tool_call_id: id, name: "search", content: failed ? '{"ok":false,"error_kind":"timeout","message":"search timed out after 30 s"}' : `{"ok":true,"hits":3,"first":"document ${round}"}` },
        { at: AT, producer: agent, evidence: { args: { query: `step ${round} of ${serial}` }, ok: !failed, ...(failed ? { error_kind: "timeout" as const } : {}), duration_ms: 12, sandbox: { backend: "local", working_dir: "/tmp/w", handle_id: null }, resource_key: null } },
      ),
    );
  }
  chunks.push(makeChunk("assistant", { content: `Answer ${serial}: here is what I found, **with sources**.`, tool_calls: null }, { at: AT, producer: agent, model: "bench-model", usage: usage(300, 60), latency_ms: 800 }));
  return chunks;
}

/** The bundle text and what it holds. */
export interface ExplorerRun {
  bundle: string;
  sessions: number;
  ownChunks: number;
}

/** Builds the run. */
export function explorerRun(targetSessions: number, targetChunks: number): ExplorerRun {
  const perLoop = Math.max(1, Math.ceil((targetChunks / (targetSessions * 0.68) - 1) / 2));
  const entries: { session: Session; annotations: Record<string, unknown> }[] = [];
  let ownChunks = 0;
  let serial = 0;
  const add = (session: Session, nodeId: string, own: number): Session => {
    entries.push({ session, annotations: { node_id: nodeId } });
    ownChunks += own;
    return session;
  };
  const agents = ["researcher", "critic", "writer", "planner"].map((name) => add(Session.create("system", `You are the ${name}.`), name, 1));
  const loop = (input: Session, agentIndex: number): Session => {
    const agent = agents[agentIndex % agents.length] as Session;
    const name = ["researcher", "critic", "writer", "planner"][agentIndex % 4] as string;
    serial += 1;
    const own = rounds(name, perLoop, 37, serial);
    const spent = own.reduce<Usage | null>((sum, chunk) => (chunk.meta.usage ? usage((sum?.prompt_tokens ?? 0) + chunk.meta.usage.prompt_tokens, (sum?.completion_tokens ?? 0) + chunk.meta.usage.completion_tokens) : sum), null);
    const session = Session.derive({ chunks: input.chunks.append(...own), parents: [input.id, agent.id], kind: "op_session_loop", operator: "run_session_loop", placementFrom: input, usage: spent });
    return add(session, name, own.length);
  };
  const question = add(Session.create("user", "Compare the quarterly numbers of every region and explain what changed."), "input", 1);
  const threads = Array.from({ length: THREADS }, () => add(question.fork(), "fanout", 0));
  let step = 0;
  while (entries.length < targetSessions) {
    for (let index = 0; index < threads.length && entries.length < targetSessions; index++) {
      const current = threads[index] as Session;
      if (step % 5 === 3 && entries.length + 5 <= targetSessions) {
        const left = loop(add(current.fork(), "split", 0), index + step);
        const right = loop(add(current.fork(), "split", 0), index + step + 1);
        threads[index] = add(left.merge(right), "join", 0);
      } else {
        threads[index] = loop(current, index + step);
      }
    }
    step += 1;
  }
  const bundle = buildBundle({ sessions: entries, run: { run_id: "run_bench_explorer", workflow: "Explorer benchmark", revision: null, status: "succeeded" } });
  return { bundle, sessions: entries.length, ownChunks };
}
