import type { Session } from "../../../runtime/session/session";
import type { Plan } from "../spec/plan";
import { executeAgent } from "./agent-node";
import { executeApproval } from "./approval-node";
import { executeCompressor } from "./compressor-node";
import { planNode } from "./flow";
import { executeFork } from "./fork-node";
import { executeInput } from "./input-node";
import { executeMerge } from "./merge-node";
import type { NodeEnv, NodeResult, StepOptions } from "./node-env";
import { executeOutput } from "./output-node";
import { executeSelector } from "./selector-node";
import { executeSubworkflow } from "./subworkflow-node";
import { RathError } from "../../../runtime/errors";

/**
 * Executes one step: node `nodeId` of `plan` on its input sessions (none for Input; for a Merge, one per join
 * edge in join order). Returns the output sessions and where each goes next, or an interrupt (Approval), a
 * route (Selector), a final output (Output) or a branch failure. Tool and Memory nodes are never steps: they
 * are attached to agents.
 */
export async function executeNode(plan: Plan, nodeId: string, inputs: Session[], env: NodeEnv, options: StepOptions = {}): Promise<NodeResult> {
  const node = planNode(plan, nodeId);
  switch (node.node.type) {
    case "input":
      return executeInput(node, inputs, env);
    case "agent":
      return executeAgent(plan, node, inputs, env);
    case "selector":
      return executeSelector(node, inputs, env);
    case "fork":
      return executeFork(node, inputs, env);
    case "merge":
      return executeMerge(node, inputs, env);
    case "compressor":
      return executeCompressor(node, inputs, env);
    case "approval":
      return executeApproval(node, inputs, env, options.decision);
    case "subworkflow":
      return executeSubworkflow(node, inputs, env);
    case "output":
      return executeOutput(node, inputs);
    case "tool":
    case "memory":
      throw new RathError("invalid_argument", `${node.node.type} node '${nodeId}' is attached to agents and is never executed as a step`);
  }
}
