import type { Problem } from "./problems";
import { checkAgentTools, checkModels, checkToolNodes } from "./validate-config";
import { checkEdges, checkFlow, checkIds, checkPortCapacity } from "./validate-graph";
import { checkFields } from "./validate-schema";
import { WorkflowSpec } from "./workflow-spec";

/** Optional knowledge of the environment the spec will run in. */
export interface ValidationOptions {
  /** Names of the configured providers; when given, a provider outside this list is `unknown_provider`. */
  readonly knownProviders?: readonly string[];
}

/** The outcome of validation: the parsed spec, or every problem found. */
export type ValidationResult = { ok: true; spec: WorkflowSpec } | { ok: false; problems: Problem[] };

/**
 * Checks a workflow spec and returns every problem, each tied to its node or edge: field errors, unknown node
 * types, duplicate ids, dangling edges, unknown ports, port type mismatches, missing Input or Output, unreachable
 * nodes, dead ends, cycles without a Selector, missing provider or model, and tool name clashes.
 */
export function validateWorkflowSpec(spec: unknown, options: ValidationOptions = {}): ValidationResult {
  const pass = checkFields(spec);
  const problems = [...pass.problems];
  const byId = checkIds(pass.nodes, pass.edges, problems);
  const wired = checkEdges(byId, pass.edges, problems);
  checkPortCapacity(byId, wired, problems);
  if (pass.nodes.length > 0 || Array.isArray((spec as { nodes?: unknown } | null)?.nodes)) checkFlow(byId, wired, problems);
  checkModels([...byId.values()], pass.settings, problems, options.knownProviders);
  checkToolNodes([...byId.values()], problems);
  checkAgentTools(byId, wired, problems);
  if (problems.length > 0) return { ok: false, problems };
  const parsed = WorkflowSpec.safeParse(spec);
  if (!parsed.success) {
    return { ok: false, problems: parsed.error.issues.map((issue) => ({ code: "invalid_field", message: issue.message, path: issue.path.map(String) })) };
  }
  return { ok: true, spec: parsed.data };
}
