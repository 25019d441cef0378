import type { z } from "zod";
import { describeValue, formatPath, type Problem } from "./problems";
import { NODE_SCHEMAS, NODE_TYPES, NodeType, WorkflowEdge, WorkflowSettings, WorkflowSpec, type WorkflowNode } from "./workflow-spec";
import { isRecord } from "../is-record";

/** A node as far as graph checks need it: its id and type, and its parsed form when its fields are valid. */
export interface NodeSkeleton {
  readonly id: string;
  readonly type: NodeType;
  readonly index: number;
  readonly node: WorkflowNode | null;
}

/** What the field-level pass found: the problems, and the parts that parsed, for the graph checks. */
export interface SchemaPass {
  readonly problems: Problem[];
  readonly nodes: NodeSkeleton[];
  readonly edges: { edge: WorkflowEdge; index: number }[];
  readonly settings: WorkflowSettings | undefined;
}

const Header = WorkflowSpec.omit({ nodes: true, edges: true });

function valueAt(root: unknown, path: readonly (string | number)[]): unknown {
  let value = root;
  for (const part of path) {
    if (typeof value !== "object" || value === null) return undefined;
    value = (value as Record<string | number, unknown>)[part];
  }
  return value;
}

/**
 * zod's message, plus what was found when zod does not say (e.g. "Too small: expected number to be >0"). A
 * wrong type says what was expected and what was found in our words ("expected string, found nothing", not
 * zod's "Invalid input: expected string, received undefined").
 */
function issueMessage(issue: z.core.$ZodIssue, found: unknown): string {
  if (issue.code === "invalid_type") return `expected ${issue.expected}, found ${describeValue(found)}`;
  if (issue.code === "invalid_value") return `expected ${allowedValues(issue.values)}, found ${describeValue(found)}`;
  if (/received|found/i.test(issue.message) || issue.code === "unrecognized_keys") return issue.message;
  return `${issue.message}; found ${found === undefined ? "nothing" : describeValue(found)}`;
}

/** `1`, `"a" or "b"`, `one of "a", "b", "c"`: a literal's or an enum's allowed values, as JSON. */
function allowedValues(values: readonly unknown[]): string {
  const shown = values.map((value) => (typeof value === "bigint" ? `${value}` : JSON.stringify(value)));
  if (shown.length <= 2) return shown.join(" or ");
  return `one of ${shown.join(", ")}`;
}

function issueProblems(
  issues: readonly z.core.$ZodIssue[],
  root: unknown,
  prefix: (string | number)[],
  owner: { nodeId?: string; edgeId?: string },
): Problem[] {
  return issues.map((issue) => {
    const relative = issue.path.map((part) => (typeof part === "symbol" ? String(part) : part));
    const path = [...prefix, ...relative];
    return { code: "invalid_field", message: `${formatPath(path)}: ${issueMessage(issue, valueAt(root, relative))}`, ...owner, path };
  });
}

/** The settings' default provider and model even when other settings are invalid (so they still count). */
function lenientSettings(raw: unknown): WorkflowSettings | undefined {
  if (!isRecord(raw)) return undefined;
  const pick = (value: unknown) => (typeof value === "string" && value.length > 0 ? value : undefined);
  return { defaultProvider: pick(raw.defaultProvider), defaultModel: pick(raw.defaultModel) };
}

/**
 * Parses a spec one node and one edge at a time, so that one bad node does not hide the problems of the others.
 * Nodes with a known type and a string id take part in the graph checks even when their config is invalid.
 */
export function checkFields(spec: unknown): SchemaPass {
  const problems: Problem[] = [];
  if (!isRecord(spec)) {
    problems.push({ code: "invalid_field", message: `expected a workflow spec object, found ${describeValue(spec)}`, path: [] });
    return { problems, nodes: [], edges: [], settings: undefined };
  }
  const header = Header.safeParse(spec);
  if (!header.success) problems.push(...issueProblems(header.error.issues, spec, [], {}));
  const settings = WorkflowSettings.optional().safeParse(spec.settings);

  const nodes: NodeSkeleton[] = [];
  const rawNodes = spec.nodes;
  if (!Array.isArray(rawNodes)) {
    problems.push({ code: "invalid_field", message: `nodes: expected an array, found ${describeValue(rawNodes)}`, path: ["nodes"] });
  } else {
    rawNodes.forEach((raw: unknown, index) => {
      const skeleton = checkNode(raw, index, problems);
      if (skeleton) nodes.push(skeleton);
    });
  }

  const edges: { edge: WorkflowEdge; index: number }[] = [];
  const rawEdges = spec.edges;
  if (!Array.isArray(rawEdges)) {
    problems.push({ code: "invalid_field", message: `edges: expected an array, found ${describeValue(rawEdges)}`, path: ["edges"] });
  } else {
    rawEdges.forEach((raw: unknown, index) => {
      const parsed = WorkflowEdge.safeParse(raw);
      if (parsed.success) {
        edges.push({ edge: parsed.data, index });
        return;
      }
      const edgeId = isRecord(raw) && typeof raw.id === "string" ? raw.id : undefined;
      problems.push(...issueProblems(parsed.error.issues, raw, ["edges", index], edgeId === undefined ? {} : { edgeId }));
    });
  }
  return { problems, nodes, edges, settings: settings.success ? settings.data : lenientSettings(spec.settings) };
}

function checkNode(raw: unknown, index: number, problems: Problem[]): NodeSkeleton | null {
  const path = ["nodes", index];
  if (!isRecord(raw)) {
    problems.push({ code: "invalid_field", message: `${formatPath(path)}: expected a node object, found ${describeValue(raw)}`, path });
    return null;
  }
  const id = typeof raw.id === "string" && raw.id.length > 0 ? raw.id : undefined;
  const owner = id === undefined ? {} : { nodeId: id };
  const type = NodeType.safeParse(raw.type);
  if (!type.success) {
    problems.push({
      code: "unknown_node_type",
      message: `${formatPath([...path, "type"])}: unknown node type; expected one of ${NODE_TYPES.join(", ")}, found ${describeValue(raw.type)}`,
      ...owner,
      path: [...path, "type"],
    });
    return null;
  }
  const parsed = NODE_SCHEMAS[type.data].safeParse(raw);
  if (!parsed.success) problems.push(...issueProblems(parsed.error.issues, raw, path, owner));
  if (id === undefined) return null;
  return { id, type: type.data, index, node: parsed.success ? (parsed.data) : null };
}
