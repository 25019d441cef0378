import { RathError } from "../../../runtime/errors";
import type { Session } from "../../../runtime/session/session";
import type { Plan, PlanNode } from "../spec/plan";
import type { NodeType, WorkflowNodeOf } from "../../../runtime/workflow-spec/workflow-spec";
import type { NextStep } from "./node-env";

/** The plan node `nodeId`; `not_found` when the plan has none. */
export function planNode(plan: Plan, nodeId: string): PlanNode {
  const node = plan.nodes[nodeId];
  if (!node) throw new RathError("not_found", `plan '${plan.id}' has no node '${nodeId}'; nodes: ${Object.keys(plan.nodes).join(", ")}`);
  return node;
}

/** The spec node of a plan node, checked to be of `type`. */
export function nodeOfType<T extends NodeType>(node: PlanNode, type: T): WorkflowNodeOf<T> {
  if (node.node.type !== type) throw new RathError("internal", `expected a ${type} node, found ${node.node.type} '${node.node.id}'`);
  return node.node as WorkflowNodeOf<T>;
}

/** Next steps along the session edges leaving `port`, all carrying output `output`. */
export function followPort(node: PlanNode, port = "out", output = 0): NextStep[] {
  return node.successors.filter((edge) => edge.sourcePort === port).map((edge) => ({ nodeId: edge.target, edgeId: edge.edgeId, output }));
}

/** Exactly one input session, or an `invalid_argument` error that says how many came. */
export function singleInput(node: PlanNode, inputs: readonly Session[]): Session {
  const [first] = inputs;
  if (inputs.length !== 1 || !first) {
    throw new RathError("invalid_argument", `${node.node.type} node '${node.node.id}' takes one input session; found ${inputs.length}`);
  }
  return first;
}

/** Index and text of the session's last `user` or `assistant` chunk with text, or null. */
export function lastConversationText(session: Session): { index: number; text: string } | null {
  for (let index = session.chunks.length - 1; index >= 0; index--) {
    const chunk = session.chunks.at(index);
    if (chunk?.kind === "user") return { index, text: chunk.payload.content };
    if (chunk?.kind === "assistant" && chunk.payload.content !== null) return { index, text: chunk.payload.content };
  }
  return null;
}

/** The provider and model of an agent, selector or compressor (resolved from settings by the compiler). */
export function modelChoice(node: WorkflowNodeOf<"agent" | "selector" | "compressor">): { provider: string; model: string } {
  const { provider, model } = node.config;
  if (!provider || !model) {
    throw new RathError("invalid_workflow", `${node.type} '${node.id}' has no ${provider ? "model" : "provider"}; expected the compiled plan to resolve it`);
  }
  return { provider, model };
}
