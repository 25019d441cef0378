/**
 * Engine test data: workflow specs built from agent directives, and a queued run of a spec (workflow, revision
 * and run created through the stores, with the plan hash the compiler gives).
 */
import type { Database } from "../../db/database";
import { createRun } from "../../db/run-store";
import type { RunRecord } from "../../db/run-record";
import { createWorkflow, saveRevision } from "../../db/workflow-store";
import { runTimeout } from "../run-deadline";
import { compileWorkflow } from "../spec/compile";
import type { WorkflowSettings, WorkflowSpec } from "../../../runtime/workflow-spec/workflow-spec";
import { testInstructions, type TestDirective } from "./test-provider";

/** One agent of a linear spec: its node id, directive and built-in tools. */
export interface LinearAgent {
  id: string;
  directive: TestDirective;
  builtins?: string[];
}

/** input -> agents in order -> output, every agent on the test provider. */
export function linearSpec(agents: readonly LinearAgent[], settings: WorkflowSettings = {}, extra: { approvalAfter?: string } = {}): WorkflowSpec {
  const nodes: WorkflowSpec["nodes"] = [{ id: "input", type: "input", config: { defaultText: "hello" } }];
  const chain = ["input"];
  for (const agent of agents) {
    nodes.push({
      id: agent.id,
      type: "agent",
      config: { name: agent.id, instructions: testInstructions({ name: agent.id, ...agent.directive }), ...(agent.builtins ? { builtins: agent.builtins } : {}) },
    });
    chain.push(agent.id);
    if (extra.approvalAfter === agent.id) {
      nodes.push({ id: "review", type: "approval", config: { prompt: "Approve?", allowEdit: true } });
      chain.push("review");
    }
  }
  nodes.push({ id: "output", type: "output", config: {} });
  chain.push("output");
  const edges = chain.slice(1).map((target, index) => ({ id: `e${index}`, source: chain[index] as string, sourcePort: "out", target, targetPort: "in" }));
  return { version: 1, name: "engine test", nodes, edges, settings: { defaultProvider: "scripted", defaultModel: "scripted-test", ...settings } };
}

/** Saves `spec` as a new workflow's revision and queues a run of it (timeout: `options.timeoutMs`, else the spec's `runTimeoutMs`). */
export async function queueRun(
  database: Database,
  spec: unknown,
  options: { input?: unknown; tokenBudget?: number; priority?: number; timeoutMs?: number } = {},
): Promise<RunRecord> {
  const plan = compileWorkflow(spec);
  const workflow = await createWorkflow(database, { name: plan.name });
  const revision = await saveRevision(database, { workflowId: workflow.id, parentRevisionId: null, spec, specSha256: plan.hash, planId: plan.id });
  const { run } = await createRun(database, {
    workflowId: workflow.id,
    revisionId: revision.id,
    planHash: plan.hash,
    input: options.input ?? "hello",
    ...(options.tokenBudget === undefined ? {} : { tokenBudget: options.tokenBudget }),
    ...(options.priority === undefined ? {} : { priority: options.priority }),
    ...runTimeout(options.timeoutMs, plan.settings),
  });
  return run;
}
