import { describe, expect, it } from "vitest";
import type { Session } from "../../../runtime/session/session";
import { createScriptedProvider } from "../../../runtime/testing/scripted-provider";
import { compileWorkflow } from "../spec/compile";
import { EXAMPLE_SPECS } from "../spec/examples";
import { executeNode } from "./execute-node";
import { runPlanSequentially } from "./sequential-runner";
import { testEnv } from "./test-env";

async function interrupted() {
  const plan = compileWorkflow(EXAMPLE_SPECS.approval);
  const provider = createScriptedProvider({ steps: [{ content: "Dear all, we shipped." }] });
  const env = testEnv({ scripted: provider }, { input: "draft it" });
  const result = await runPlanSequentially(plan, env);
  return { plan, env, result, reviewed: result.steps[1]?.result.outputs[0] as Session };
}

describe("approval node", () => {
  it("produces an interrupt with the prompt and the text under review, and schedules nothing", async () => {
    const { result, reviewed } = await interrupted();
    expect(result.status).toBe("interrupted");
    expect(result.interrupt).toEqual({
      nodeId: "review",
      prompt: "Send this email?",
      payload: { nodeId: "review", sessionId: reviewed.id, text: "Dear all, we shipped.", allowEdit: true },
    });
    expect(result.steps.at(-1)?.result.next).toEqual([]);
    expect(result.outputs).toEqual([]);
  });

  it("approve passes the session through to the next node", async () => {
    const { plan, env, reviewed } = await interrupted();
    const approved = await executeNode(plan, "review", [reviewed], env, { decision: { kind: "approve" } });
    expect(approved.outputs).toEqual([reviewed]);
    expect(approved.next).toEqual([{ nodeId: "output", edgeId: "e-review-output", output: 0 }]);
  });

  it("edit replaces the last assistant text in a new session that records the edit", async () => {
    const { plan, env, reviewed } = await interrupted();
    const edited = await executeNode(plan, "review", [reviewed], env, { decision: { kind: "edit", text: "Hello all, v2 is out." } });
    const session = edited.outputs[0] as Session;
    expect(session.id).not.toBe(reviewed.id);
    expect(session.chunks.length).toBe(reviewed.chunks.length);
    expect(session.chunks.last()).toMatchObject({ kind: "assistant", payload: { content: "Hello all, v2 is out." } });
    expect(reviewed.chunks.last()).toMatchObject({ kind: "assistant", payload: { content: "Dear all, we shipped." } });
    expect(session.lineage.parent_session_ids).toEqual([reviewed.id]);
    expect(session.lineage.lineage_extras).toContainEqual(["approval.decision", "edit"]);
  });

  it("respond appends the response as a user chunk", async () => {
    const { plan, env, reviewed } = await interrupted();
    const responded = await executeNode(plan, "review", [reviewed], env, { decision: { kind: "respond", text: "Mention the date." } });
    const session = responded.outputs[0] as Session;
    expect(session.chunks.length).toBe(reviewed.chunks.length + 1);
    expect(session.chunks.last()).toMatchObject({ kind: "user", payload: { content: "Mention the date." }, meta: { producer: "review" } });
  });

  it("reject fails the branch without scheduling anything", async () => {
    const { plan, env, reviewed } = await interrupted();
    const rejected = await executeNode(plan, "review", [reviewed], env, { decision: { kind: "reject", reason: "too long" } });
    expect(rejected).toEqual({ outputs: [], next: [], failure: { code: "approval_rejected", message: "approval 'review' was rejected: too long" } });
  });

  it("finishes the run when an in-process decider answers", async () => {
    const plan = compileWorkflow(EXAMPLE_SPECS.approval);
    const provider = createScriptedProvider({ steps: [{ content: "Draft." }] });
    const result = await runPlanSequentially(plan, testEnv({ scripted: provider }), { decide: async () => ({ kind: "edit", text: "Better draft." }) });
    expect(result.status).toBe("succeeded");
    expect(result.outputs.map((output) => output.text)).toEqual(["Better draft."]);
  });

  it("refuses an edit when the node does not allow edits", async () => {
    const { env, reviewed } = await interrupted();
    const spec = structuredClone(EXAMPLE_SPECS.approval) as { nodes: { id: string; config: Record<string, unknown> }[] };
    (spec.nodes.find((node) => node.id === "review") as { config: Record<string, unknown> }).config.allowEdit = false;
    await expect(executeNode(compileWorkflow(spec), "review", [reviewed], env, { decision: { kind: "edit", text: "x" } })).rejects.toThrow(
      /does not allow edits/,
    );
  });
});
