import { z } from "zod";

/** Every kind of problem the validator reports. */
export const PROBLEM_CODES = [
  "invalid_field",
  "unknown_node_type",
  "duplicate_node_id",
  "duplicate_edge_id",
  "dangling_edge",
  "unknown_port",
  "port_type_mismatch",
  "too_many_edges",
  "missing_input",
  "multiple_inputs",
  "missing_output",
  "unreachable_node",
  "dead_end",
  "cycle_without_selector",
  "merge_in_loop",
  "missing_provider",
  "unknown_provider",
  "missing_model",
  "unknown_builtin_tool",
  "duplicate_tool_name",
  "invalid_tool_schema",
  "fork_branch_mismatch",
] as const;

/** One problem code. */
export const ProblemCode = z.enum(PROBLEM_CODES);
export type ProblemCode = z.infer<typeof ProblemCode>;

/** One thing wrong with a spec, tied to the node or edge the canvas should mark. */
export const Problem = z.object({
  code: ProblemCode,
  message: z.string(),
  nodeId: z.string().optional(),
  edgeId: z.string().optional(),
  /** Where in the spec document (e.g. `["nodes", 2, "config", "name"]`). */
  path: z.array(z.union([z.string(), z.number()])).optional(),
});
export type Problem = z.infer<typeof Problem>;

/** Renders a path the way a reader expects: `nodes[2].config.name`. */
export function formatPath(path: readonly (string | number)[]): string {
  let out = "";
  for (const part of path) out += typeof part === "number" ? `[${part}]` : out === "" ? part : `.${part}`;
  return out === "" ? "(spec)" : out;
}

/** Describes a value's kind for "found ..." in messages. */
export function describeValue(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "string") return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}...` : value)}`;
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint") return `${typeof value} ${value.toString()}`;
  return typeof value === "object" ? "an object" : typeof value;
}
