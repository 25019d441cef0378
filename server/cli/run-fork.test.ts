import path from "node:path";
import { describe, expect, it } from "vitest";
import { openDatabase } from "../db/database";
import { sessionGraph } from "../db/session-store";
import { parseArguments } from "./run";
import { cliHarness, repositoryRoot } from "./testing/cli-harness";

const examples = path.join(repositoryRoot, "server/engine/spec/examples");
const { directory, rath } = cliHarness("run", "rath-cli-fork-");

describe("rath run --fork-from", () => {
  it("parses SESSION_ID:CHUNK_INDEX and refuses it with a spec file, a malformed value, or fork-only options without it", () => {
    expect(parseArguments(["--fork-from", "ses_a:b:3", "--instructions", "Be brief."])).toMatchObject({ specFile: undefined, forkFrom: { sessionId: "ses_a:b", chunkIndex: 3 }, instructions: "Be brief." });
    expect(() => parseArguments(["spec.json", "--fork-from", "ses_1:0"])).toThrow("not both");
    expect(() => parseArguments(["--fork-from", "ses_1"])).toThrow("--fork-from expects SESSION_ID:CHUNK_INDEX");
    expect(() => parseArguments(["--fork-from", "ses_1:-1"])).toThrow("--fork-from expects SESSION_ID:CHUNK_INDEX");
    expect(() => parseArguments(["spec.json", "--model", "m"])).toThrow("use them with --fork-from");
  });

  it("forks a stored run at a chunk with a new input and runs the fork; a chunk out of range exits 2 and stores nothing", async () => {
    const database = path.join(directory, "fork.db");
    const original = rath([path.join(examples, "hello-agent.json"), "--input", "hi", "--json", "--db", database]);
    expect(original.status).toBe(0);
    const { run_id: runId } = JSON.parse(original.stdout) as { run_id: string };
    const opened = await openDatabase({ url: `file:${database}` });
    let answerId: string;
    try {
      const answer = (await sessionGraph(opened, runId)).sessions.find((session) => session.lineage.lineage_kind === "op_session_loop");
      answerId = answer?.id ?? "";
    } finally {
      await opened.close();
    }

    const forked = rath(["--fork-from", `${answerId}:0`, "--input", "bonjour", "--json", "--db", database]);
    expect(forked.stderr).toBe("");
    expect(forked.status).toBe(0);
    const printed = JSON.parse(forked.stdout) as { run_id: string; status: string; output: { text: string } };
    expect(printed.run_id).not.toBe(runId);
    expect(printed.status).toBe("succeeded");
    expect(printed.output.text).toContain("bonjour");

    const out = rath(["--fork-from", `${answerId}:99`, "--db", database]);
    expect(out.status).toBe(2);
    expect(out.stderr).toContain("chunkIndex 99 is out of range");
    const check = await openDatabase({ url: `file:${database}` });
    try {
      expect(await check.client.run.count()).toBe(2);
      const fork = (await sessionGraph(check, printed.run_id)).sessions.find((session) => session.lineage.parent_session_ids.includes(answerId));
      expect(fork?.lineage.lineage_kind).toBe("op_fork");
      // The replayed prefix ran nothing again: the fork's first step is the agent that continues from the chunk.
      const steps = await check.client.runEvent.findMany({ where: { runId: printed.run_id, type: "run.step.completed" }, orderBy: { seq: "asc" } });
      const nodes = steps.map((row) => (JSON.parse(row.payload) as { node_id: string }).node_id);
      expect(nodes[0]).toBe(fork?.nodeId);
      expect(nodes).not.toContain("input");
      expect(await check.client.runEvent.count({ where: { runId: printed.run_id, type: "run.forked" } })).toBe(1);
    } finally {
      await check.close();
    }
  }, 180_000);
});
