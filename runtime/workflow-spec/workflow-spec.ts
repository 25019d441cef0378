import { z } from "zod";
import {
  AgentConfig,
  ApprovalConfig,
  CompressorConfig,
  ForkConfig,
  InputConfig,
  MemoryConfig,
  MergeConfig,
  OutputConfig,
  SelectorConfig,
  SubworkflowConfig,
  ToolConfig,
} from "./node-configs";

/** Every node type the canvas can draw, in palette order. */
export const NODE_TYPES = [
  "input",
  "agent",
  "tool",
  "selector",
  "fork",
  "merge",
  "compressor",
  "memory",
  "approval",
  "subworkflow",
  "output",
] as const;

/** One node type. */
export const NodeType = z.enum(NODE_TYPES);
export type NodeType = z.infer<typeof NodeType>;

/** A node id: chosen by the canvas, unique within a spec. */
export const NodeId = z.string().regex(/^[A-Za-z0-9_.:-]{1,128}$/, "a node id is 1-128 letters, digits, '_', '.', ':' or '-'");

const nodeOf = <T extends NodeType, C extends z.ZodType>(type: T, config: C) =>
  z.object({
    id: NodeId,
    type: z.literal(type),
    /** Shown on the canvas. */
    label: z.string().optional(),
    /** What the node does; a Selector shows it to the model as the candidate's description. */
    description: z.string().optional(),
    config,
  });

/** The schema of each node type, by type (used to parse nodes one at a time so every problem is reported). */
export const NODE_SCHEMAS = {
  input: nodeOf("input", InputConfig),
  agent: nodeOf("agent", AgentConfig),
  tool: nodeOf("tool", ToolConfig),
  selector: nodeOf("selector", SelectorConfig),
  fork: nodeOf("fork", ForkConfig),
  merge: nodeOf("merge", MergeConfig),
  compressor: nodeOf("compressor", CompressorConfig),
  memory: nodeOf("memory", MemoryConfig),
  approval: nodeOf("approval", ApprovalConfig),
  subworkflow: nodeOf("subworkflow", SubworkflowConfig),
  output: nodeOf("output", OutputConfig),
} as const;

/** One node of a workflow: a discriminated union on `type`, each with its typed `config`. */
export const WorkflowNode = z.discriminatedUnion("type", [
  NODE_SCHEMAS.input,
  NODE_SCHEMAS.agent,
  NODE_SCHEMAS.tool,
  NODE_SCHEMAS.selector,
  NODE_SCHEMAS.fork,
  NODE_SCHEMAS.merge,
  NODE_SCHEMAS.compressor,
  NODE_SCHEMAS.memory,
  NODE_SCHEMAS.approval,
  NODE_SCHEMAS.subworkflow,
  NODE_SCHEMAS.output,
]);
export type WorkflowNode = z.infer<typeof WorkflowNode>;

/** The node of one type. */
export type WorkflowNodeOf<T extends NodeType> = Extract<WorkflowNode, { type: T }>;

/** A wire from an output port of one node to an input port of another. */
export const WorkflowEdge = z.object({
  id: z.string().min(1),
  source: z.string().min(1),
  sourcePort: z.string().min(1),
  target: z.string().min(1),
  targetPort: z.string().min(1),
});
export type WorkflowEdge = z.infer<typeof WorkflowEdge>;

/** Run-wide settings: defaults for provider and model, and limits the engine enforces. */
export const WorkflowSettings = z.object({
  defaultProvider: z.string().min(1).optional(),
  defaultModel: z.string().min(1).optional(),
  tokenBudget: z.number().int().positive().optional(),
  maxSteps: z.number().int().positive().optional(),
  stepTimeoutMs: z.number().int().positive().optional(),
  stepRetries: z.number().int().nonnegative().optional(),
  /** Default run timeout (ms from the run's creation; a run's own `timeoutMs` wins): past it the run is `timed_out`. */
  runTimeoutMs: z.number().int().positive().optional(),
});
export type WorkflowSettings = z.infer<typeof WorkflowSettings>;

/** The declarative workflow the canvas saves (layout lives apart, in `WorkflowLayout`). */
export const WorkflowSpec = z.object({
  version: z.literal(1),
  name: z.string().min(1),
  description: z.string().optional(),
  nodes: z.array(WorkflowNode),
  edges: z.array(WorkflowEdge),
  settings: WorkflowSettings.optional(),
});
export type WorkflowSpec = z.infer<typeof WorkflowSpec>;
