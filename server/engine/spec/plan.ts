import { z } from "zod";
import { WorkflowNode, WorkflowSettings } from "../../../runtime/workflow-spec/workflow-spec";

/** A session edge leaving a node, as the scheduler follows it. */
export const PlanSuccessor = z.object({
  edgeId: z.string(),
  sourcePort: z.string(),
  target: z.string(),
  targetPort: z.string(),
});
export type PlanSuccessor = z.infer<typeof PlanSuccessor>;

/** A session edge arriving at a node. */
export const PlanPredecessor = z.object({
  edgeId: z.string(),
  source: z.string(),
  sourcePort: z.string(),
  targetPort: z.string(),
});
export type PlanPredecessor = z.infer<typeof PlanPredecessor>;

/** One candidate of a Selector: index as the model sees it, the node it leads to and its description. */
export const PlanCandidate = z.object({
  index: z.number().int().nonnegative(),
  edgeId: z.string(),
  target: z.string(),
  name: z.string(),
  description: z.string(),
});
export type PlanCandidate = z.infer<typeof PlanCandidate>;

/** One node of a plan: the spec node (provider and model resolved from settings) and its wiring. */
export const PlanNode = z.object({
  node: WorkflowNode,
  /** Outgoing session edges, in spec edge order. */
  successors: z.array(PlanSuccessor),
  /** Incoming session edges, in spec edge order. */
  predecessors: z.array(PlanPredecessor),
  /** Tool nodes attached to this agent, in edge order. */
  tools: z.array(z.string()),
  /** Memory nodes attached to this agent, in edge order. */
  memory: z.array(z.string()),
  /** For a merge: the incoming edges it waits for, in the order their sessions are merged. */
  join: z.array(z.string()).nullable(),
  /** For a selector: its candidates (the `out` edges, in order). */
  candidates: z.array(PlanCandidate).nullable(),
  /** For a selector: the node its `done` edge leads to (taken on -1), or null to end the branch. */
  done: z.object({ edgeId: z.string(), target: z.string() }).nullable(),
});
export type PlanNode = z.infer<typeof PlanNode>;

/** The compiled, plain-JSON form of a workflow revision that workers execute step by step. */
export const Plan = z.object({
  planVersion: z.literal(1),
  /** Derived from the hash: the same spec always compiles to the same plan id. */
  id: z.string(),
  /** sha256 of the spec's canonical JSON. */
  hash: z.string().regex(/^[0-9a-f]{64}$/),
  name: z.string(),
  entry: z.string(),
  outputs: z.array(z.string()),
  settings: WorkflowSettings,
  nodes: z.record(z.string(), PlanNode),
});
export type Plan = z.infer<typeof Plan>;
