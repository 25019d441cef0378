/**
 * A forked run's timeline reads whole: the steps it took from the original's record are `run.step.replayed` events of
 * the new run (recorded node, times and step, outputs as the new run's sessions), before its live steps.
 */
import { expect, it } from "vitest";
import type { ModelRequest } from "../../runtime/providers/types";
import { createScriptedProvider } from "../../runtime/testing/scripted-provider";
import { callerFor } from "../api/testing/api-harness";
import type { Database } from "../db/database";
import { describeEachDatabase } from "../db/testing/test-databases";
import { STEP_REPLAYED, type StepReplayedPayload } from "./fork-timeline";
import { runToCompletion } from "./run-to-completion";

const edge = (source: string, target: string) => ({ id: `${source}-${target}`, source, sourcePort: "out", target, targetPort: "in" });
const agent = (id: string) => ({ id, type: "agent", config: { name: id, instructions: `${id}: answer` } });
const settings = { defaultProvider: "scripted", defaultModel: "scripted" };

/** input -> writer -> editor -> output. */
const chainSpec = {
  version: 1,
  name: "timeline chain",
  settings,
  nodes: [{ id: "input", type: "input", config: {} }, agent("writer"), agent("editor"), { id: "output", type: "output", config: {} }],
  edges: [edge("input", "writer"), edge("writer", "editor"), edge("editor", "output")],
};

/** input -> split -> (pros | cons) -> join -> output. */
const branchSpec = {
  version: 1,
  name: "timeline branches",
  settings,
  nodes: [
    { id: "input", type: "input", config: {} },
    { id: "split", type: "fork", config: { branches: 2 } },
    agent("pros"),
    agent("cons"),
    { id: "join", type: "merge", config: {} },
    { id: "output", type: "output", config: {} },
  ],
  edges: [edge("input", "split"), edge("split", "pros"), edge("split", "cons"), edge("pros", "join"), edge("cons", "join"), edge("join", "output")],
};

function counting() {
  return createScriptedProvider({ steps: (request: ModelRequest) => ({ content: `answer ${request.messages.length}` }) });
}

async function run(database: Database, runId: string) {
  const provider = counting();
  expect((await runToCompletion(database, runId, { providers: { scripted: provider }, placement: { backend: "local" } })).status).toBe("succeeded");
  return provider;
}

/** The run's step events in order: `[type, node, payload]`. */
async function steps(database: Database, runId: string) {
  const rows = await database.client.runEvent.findMany({ where: { runId, type: { in: ["run.step.completed", STEP_REPLAYED] } }, orderBy: { seq: "asc" } });
  return rows.map((row) => ({ type: row.type, payload: JSON.parse(row.payload) as StepReplayedPayload & { step_seq?: number } }));
}

describeEachDatabase("a forked run's timeline", (open) => {
  it("lists the original's steps before the fork point as replayed (recorded times, the fork as the forked step's output), then its live steps", async () => {
    const { database } = await open();
    const api = callerFor(database);
    const { run: original } = await api.runs.start({ spec: chainSpec, input: "the launch" });
    await run(database, original.id);
    const recorded = await steps(database, original.id);
    const writer = (await api.sessions.graph({ runId: original.id })).sessions.find((session) => session.nodeId === "writer" && session.lineage.lineage_kind === "op_session_loop");
    if (writer === undefined) throw new Error("no writer output");
    const forked = await api.runs.forkFrom({ sessionId: writer.id, chunkIndex: writer.chunkCount - 1 });
    expect((await run(database, forked.run.id)).requests).toHaveLength(1);

    const timeline = await steps(database, forked.run.id);
    expect(timeline.map((step) => [step.type, step.payload.node_id])).toEqual([
      [STEP_REPLAYED, "input"],
      [STEP_REPLAYED, "writer"],
      ["run.step.completed", "editor"],
      ["run.step.completed", "output"],
    ]);
    const forkRoot = (await api.sessions.graph({ runId: forked.run.id })).sessions.find((session) => session.lineage.lineage_kind === "op_fork");
    const [input, writerStep] = timeline.map((step) => step.payload);
    expect(input).toMatchObject({ from_run_id: original.id, from_step_seq: 1, part: "prefix", started_at: recorded[0]?.payload.started_at, ended_at: recorded[0]?.payload.ended_at });
    expect(writerStep).toMatchObject({ from_run_id: original.id, from_step_seq: 2, part: "prefix", outputs: [forkRoot?.id] });
  });

  it("a fork inside one branch lists the prefix, the other branch replayed with its copied session, and a fork of the fork lists all of it", async () => {
    const { database } = await open();
    const api = callerFor(database);
    const { run: original } = await api.runs.start({ spec: branchSpec, input: "Weigh it." });
    await run(database, original.id);
    const pros = (await api.sessions.graph({ runId: original.id })).sessions.find((session) => session.nodeId === "pros" && session.lineage.lineage_kind === "op_session_loop");
    if (pros === undefined) throw new Error("no pros output");
    const forked = await api.runs.forkFrom({ sessionId: pros.id, chunkIndex: 0, edits: { input: "Only the upside." } });
    await run(database, forked.run.id);
    const timeline = await steps(database, forked.run.id);
    expect(timeline.map((step) => [step.type, step.payload.node_id, step.payload.part ?? "live"])).toEqual([
      [STEP_REPLAYED, "input", "prefix"],
      [STEP_REPLAYED, "split", "prefix"],
      [STEP_REPLAYED, "cons", "branch"],
      ["run.step.completed", "pros", "live"],
      ["run.step.completed", "join", "live"],
      ["run.step.completed", "output", "live"],
    ]);
    const graph = await api.sessions.graph({ runId: forked.run.id });
    const cons = timeline[2]?.payload;
    expect(cons?.outputs).toHaveLength(1);
    expect(graph.sessions.find((session) => session.id === cons?.outputs[0])?.nodeId).toBe("cons");

    // A fork of the fork, at the end of its pros turn: everything before comes from the record, across both runs.
    const prosAgain = graph.sessions.find((session) => session.nodeId === "pros" && session.lineage.lineage_kind === "op_session_loop");
    if (prosAgain === undefined) throw new Error("no pros output in the fork");
    const second = await api.runs.forkFrom({ sessionId: prosAgain.id, chunkIndex: prosAgain.chunkCount - 1 });
    expect((await run(database, second.run.id)).requests).toHaveLength(0);
    const secondTimeline = await steps(database, second.run.id);
    expect(secondTimeline.map((step) => [step.type, step.payload.node_id, step.payload.from_run_id ?? null])).toEqual([
      [STEP_REPLAYED, "input", original.id],
      [STEP_REPLAYED, "split", original.id],
      [STEP_REPLAYED, "cons", original.id],
      [STEP_REPLAYED, "pros", forked.run.id],
      ["run.step.completed", "join", null],
      ["run.step.completed", "output", null],
    ]);
  });
});
