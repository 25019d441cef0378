/**
 * A lineage graph shaped like real runs, for the lineage export measure: each run starts from a user question,
 * then takes a few workflow steps — agent loops (a tool call and its result per round), fan-out into forks that
 * each loop and are merged back, detaches, compressions and selector turns — with every agent's instructions as
 * its own root session. Sessions never exceed `MAX_CHUNKS` chunks (a longer one is compressed first, as a
 * Compressor node would).
 */
import { makeChunk, type Chunk } from "../runtime/session/chunk";
import { Session } from "../runtime/session/session";
import type { Usage } from "../runtime/session/usage";

/** The most chunks a session of the graph holds. */
export const MAX_CHUNKS = 10_000;

const AT = new Date(0).toISOString();

/** A small deterministic generator (same graph every run). */
function randomSource(seed: number): (limit: number) => number {
  let state = seed;
  return (limit) => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return Math.floor((state / 2_147_483_648) * limit);
  };
}

function usage(prompt: number, completion: number): Usage {
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}

function roundChunks(agent: string, round: number): Chunk[] {
  const id = `call_${agent}_${round}`;
  return [
    makeChunk(
      "assistant",
      { content: null, tool_calls: [{ id, type: "function", function: { name: "search", arguments: `{"query":"step ${round}"}` } }] },
      { at: AT, producer: agent, model: "bench-model", usage: usage(120 + round, 18) },
    ),
    makeChunk("tool_result", { tool_call_id: id, name: "search", content: `result ${round}: three matching documents` }, { at: AT, producer: agent }),
  ];
}

/** What the agent loop produces: parents [input, agent], the rounds' chunks appended, the loop's usage. */
function agentLoop(input: Session, agent: Session, rounds: number): Session {
  let chunks = input.chunks;
  let spent: Usage | null = null;
  for (let round = 0; round < rounds; round++) {
    for (const chunk of roundChunks(agent.id, round)) {
      chunks = chunks.append(Object.freeze(chunk));
      if (chunk.meta.usage) spent = spent === null ? chunk.meta.usage : usage(spent.prompt_tokens + chunk.meta.usage.prompt_tokens, spent.completion_tokens + chunk.meta.usage.completion_tokens);
    }
  }
  const answer = makeChunk("assistant", { content: "Here is what I found.", tool_calls: null }, { at: AT, producer: agent.id, usage: usage(200, 40) });
  return Session.derive({
    chunks: chunks.append(Object.freeze(answer)),
    parents: [input.id, agent.id],
    kind: "op_session_loop",
    operator: "run_session_loop",
    placementFrom: input,
    usage: spent === null ? answer.meta.usage : usage(spent.prompt_tokens + 200, spent.completion_tokens + 40),
    ...(rounds >= 4 ? { extras: [["loop.truncated", true]] as [string, unknown][] } : {}),
  });
}

function compress(input: Session): Session {
  const summary = makeChunk("assistant", { content: `Summary of ${input.chunks.length} chunks.`, tool_calls: null }, { at: AT, source_session_id: input.id, usage: usage(900, 60) });
  return Session.derive({
    chunks: [summary],
    parents: [input.id],
    kind: "op_session_compress",
    operator: "run_session_compress",
    extras: [["compressor.source_chunk_count", input.chunks.length]],
    usage: usage(900, 60),
  });
}

function selectorTurn(input: Session): Session {
  const route = makeChunk("route", { selector: "router", candidates: [{ index: 0, name: "researcher", description: "Looks things up" }, { index: 1, name: "writer", description: "Writes the answer" }], chosen: 1, reply: "1" }, { at: AT, producer: "router" });
  return input.append(route);
}

/**
 * `count` sessions of runs like the ones a studio records (see the file comment). Every session's parents come
 * before it in the list.
 */
export function realisticLineageGraph(count: number, seed = 42): Session[] {
  const random = randomSource(seed);
  const sessions: Session[] = [];
  const add = (session: Session): Session => {
    if (sessions.length < count) sessions.push(session);
    return session;
  };
  const agents = ["researcher", "critic", "writer", "planner"].map((name) => add(Session.create("system", `You are the ${name}. Use the tools when they help.`)));
  const bounded = (session: Session): Session => (session.chunks.length > MAX_CHUNKS / 3 ? add(compress(session)) : session);
  for (let run = 0; sessions.length < count; run++) {
    let current = add(Session.create("user", `Question ${run}: what changed in the quarterly numbers?`));
    const steps = 3 + random(6);
    for (let step = 0; step < steps && sessions.length < count; step++) {
      const agent = agents[random(agents.length)] as Session;
      const choice = random(10);
      if (choice < 5) {
        current = add(agentLoop(bounded(current), agent, 1 + random(4)));
      } else if (choice < 7) {
        const base = bounded(current);
        const branches = Array.from({ length: 2 + random(2) }, (_, index) => add(agentLoop(add(base.fork()), agents[(index + step) % agents.length] as Session, 1 + random(3))));
        current = branches.slice(1).reduce((left, right) => add(left.merge(right)), branches[0] as Session);
      } else if (choice < 8) {
        current = add(current.detach());
      } else if (choice < 9) {
        current = add(compress(current));
      } else {
        current = add(agentLoop(selectorTurn(bounded(current)), agent, 1));
      }
    }
  }
  return sessions;
}
