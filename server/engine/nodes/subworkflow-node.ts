import { RathError } from "../../../runtime/errors";
import type { Session } from "../../../runtime/session/session";
import { compileWorkflow } from "../spec/compile";
import type { PlanNode } from "../spec/plan";
import { followPort, nodeOfType, singleInput } from "./flow";
import type { NodeEnv, NodeResult } from "./node-env";
import { runPlanSequentially } from "./sequential-runner";

/**
 * Sub-workflow: loads the child workflow's spec, compiles it and runs it in this process, sequentially, with the
 * session handed to its Input node. The child's output sessions (merged in order when there are several) continue
 * in the parent. Approvals inside a child are refused: the child cannot suspend the parent's step.
 */
export async function executeSubworkflow(node: PlanNode, inputs: readonly Session[], env: NodeEnv): Promise<NodeResult> {
  const subworkflow = nodeOfType(node, "subworkflow");
  const { workflowId, revisionId } = subworkflow.config;
  if (!env.loadSubworkflow) {
    throw new RathError("invalid_config", `sub-workflow node '${subworkflow.id}' needs a workflow loader (NodeEnv.loadSubworkflow); found none`);
  }
  const stack = env.subworkflowStack ?? [];
  if (stack.includes(workflowId)) {
    throw new RathError("cycle_detected", `sub-workflow '${workflowId}' runs itself: ${[...stack, workflowId].join(" -> ")}`);
  }
  const plan = compileWorkflow(await env.loadSubworkflow(workflowId, revisionId));
  const result = await runPlanSequentially(plan, { ...env, workflowId, subworkflowStack: [...stack, workflowId] }, { input: singleInput(node, inputs) });
  if (result.status === "interrupted") {
    throw new RathError(
      "invalid_workflow",
      `sub-workflow '${workflowId}' stopped at approval node '${result.interrupt?.nodeId ?? "?"}'; approvals inside sub-workflows are not supported`,
    );
  }
  const [first, ...rest] = result.outputs;
  if (result.status === "failed" || !first) {
    const reason = result.failures.map((failure) => `${failure.nodeId}: ${failure.message}`).join("; ") || "it reached no Output node";
    return { outputs: [], next: [], failure: { code: "subworkflow_failed", message: `sub-workflow '${workflowId}' failed: ${reason}` } };
  }
  let output = first.session;
  for (const other of rest) output = output.merge(other.session);
  if (rest.length > 0) for (const merged of result.outputs) await merged.session.release();
  return { outputs: [output], next: followPort(node) };
}
