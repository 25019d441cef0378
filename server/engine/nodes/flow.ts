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

/**
 * Hands each output session of a step to the next steps — the one delivery rule of the in-process runner and of
 * durable runs: a node without a join is ready at once with that session; a Merge waits in `joins` (node -> edge
 * -> input) until every edge of its join delivered, then is ready with its inputs in join order. `toInput` is how
 * the caller holds a session (the Session itself in-process, its id in a checkpoint's state).
 */
export function deliverOutputs<Output, Input>(
  plan: Plan,
  result: { readonly next: readonly NextStep[]; readonly outputs: readonly Output[] },
  toInput: (session: Output) => Input,
  joins: Record<string, Record<string, Input>>,
  ready: (step: { nodeId: string; inputs: Input[] }) => void,
): void {
  for (const next of result.next) {
    const session = result.outputs[next.output];
    if (!session) throw new RathError("internal", `step result names output ${next.output} but has ${result.outputs.length}`);
    const join = planNode(plan, next.nodeId).join;
    if (join === null) {
      ready({ nodeId: next.nodeId, inputs: [toInput(session)] });
      continue;
    }
    const arrived = { ...(joins[next.nodeId] ?? {}), [next.edgeId]: toInput(session) };
    if (join.every((edgeId) => arrived[edgeId] !== undefined)) {
      delete joins[next.nodeId];
      ready({ nodeId: next.nodeId, inputs: join.map((edgeId) => arrived[edgeId] as Input) });
    } else {
      joins[next.nodeId] = arrived;
    }
  }
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
