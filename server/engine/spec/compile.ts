import { RathError } from "../../../runtime/errors";
import { canonicalJson } from "../../../runtime/workflow-spec/canonical-json";
import { canonicalHash } from "./spec-hash";
import type { Plan, PlanCandidate, PlanNode } from "./plan";
import { outputPort } from "../../../runtime/workflow-spec/ports";
import { validateWorkflowSpec, type ValidationOptions } from "../../../runtime/workflow-spec/validate";
import type { WorkflowNode, WorkflowSettings, WorkflowSpec } from "../../../runtime/workflow-spec/workflow-spec";

/** The sha256 of a spec's canonical JSON (key order and undefined members do not matter). */
export function hashWorkflowSpec(spec: WorkflowSpec): string {
  return canonicalHash(spec);
}

/** The canonical JSON text of a spec, the bytes its hash is computed over. */
export function canonicalWorkflowJson(spec: WorkflowSpec): string {
  return canonicalJson(spec);
}

/** The plan id for a spec hash. */
export function planIdForHash(hash: string): string {
  return `plan_${hash.slice(0, 32)}`;
}

function resolveModels(node: WorkflowNode, settings: WorkflowSettings): WorkflowNode {
  if (node.type !== "agent" && node.type !== "selector" && node.type !== "compressor") return node;
  const provider = node.config.provider?.trim() ? node.config.provider : settings.defaultProvider;
  const model = node.config.model?.trim() ? node.config.model : settings.defaultModel;
  return { ...node, config: { ...node.config, provider, model } } as WorkflowNode;
}

function candidateName(node: WorkflowNode): string {
  if (node.label) return node.label;
  return node.type === "agent" ? node.config.name : node.id;
}

function candidateDescription(node: WorkflowNode): string {
  if (node.description) return node.description;
  if (node.type === "agent") return `${node.config.name}: ${node.config.instructions.split("\n")[0] ?? ""}`.trim();
  return node.label ?? `${node.type} ${node.id}`;
}

/**
 * Validates a spec and compiles it to a plain-JSON `Plan`: nodes by id with their session successors and
 * predecessors, attached tools and memory, merge joins and selector candidates. The plan id and hash derive from
 * the spec's canonical JSON, so the same spec always gives the same plan. Throws `invalid_workflow` (with the
 * problems in `details.problems`) for an invalid spec.
 */
export function compileWorkflow(input: unknown, options: ValidationOptions = {}): Plan {
  const result = validateWorkflowSpec(input, options);
  if (!result.ok) {
    const first = result.problems[0];
    throw new RathError(
      "invalid_workflow",
      `workflow spec has ${result.problems.length} problem(s); first: ${first?.message ?? "unknown"}`,
      { details: { problems: result.problems } },
    );
  }
  const spec = result.spec;
  const hash = hashWorkflowSpec(spec);
  const settings = spec.settings ?? {};
  const byId = new Map(spec.nodes.map((node) => [node.id, node]));
  const nodes: Record<string, PlanNode> = {};
  for (const node of spec.nodes) {
    nodes[node.id] = { node: resolveModels(node, settings), successors: [], predecessors: [], tools: [], memory: [], join: null, candidates: null, done: null };
  }
  for (const edge of spec.edges) {
    const source = byId.get(edge.source) as WorkflowNode;
    const portType = outputPort(source.type, edge.sourcePort)?.type;
    const target = nodes[edge.target] as PlanNode;
    if (portType === "tool") target.tools.push(edge.source);
    else if (portType === "memory") target.memory.push(edge.source);
    else {
      (nodes[edge.source] as PlanNode).successors.push({ edgeId: edge.id, sourcePort: edge.sourcePort, target: edge.target, targetPort: edge.targetPort });
      target.predecessors.push({ edgeId: edge.id, source: edge.source, sourcePort: edge.sourcePort, targetPort: edge.targetPort });
    }
  }
  for (const planNode of Object.values(nodes)) {
    if (planNode.node.type === "merge") planNode.join = planNode.predecessors.map((edge) => edge.edgeId);
    if (planNode.node.type !== "selector") continue;
    const candidates: PlanCandidate[] = planNode.successors
      .filter((edge) => edge.sourcePort === "out")
      .map((edge, index) => {
        const target = byId.get(edge.target) as WorkflowNode;
        return { index, edgeId: edge.edgeId, target: edge.target, name: candidateName(target), description: candidateDescription(target) };
      });
    const done = planNode.successors.find((edge) => edge.sourcePort === "done");
    planNode.candidates = candidates;
    planNode.done = done ? { edgeId: done.edgeId, target: done.target } : null;
  }
  const entry = spec.nodes.find((node) => node.type === "input") as WorkflowNode;
  return {
    planVersion: 1,
    id: planIdForHash(hash),
    hash,
    name: spec.name,
    entry: entry.id,
    outputs: spec.nodes.filter((node) => node.type === "output").map((node) => node.id),
    settings,
    nodes,
  };
}
