/**
 * The difference between two revisions of a workflow, for the visual diff: nodes and edges added, removed or
 * changed (by id), each changed node's field changes (label, description, config keys, type), and a document
 * that shows both — the newer revision plus the removed nodes and edges where they were. Pure.
 */
import { canonicalJson } from "../../runtime/workflow-spec/canonical-json";
import type { WorkflowNode } from "../../runtime/workflow-spec/workflow-spec";
import type { CanvasDocument } from "./canvas-document";
import type { DiffMark } from "./flow-projection";

/** One changed field of a node: `config.instructions`, with both values as short text. */
export interface FieldChange {
  readonly field: string;
  readonly before: string;
  readonly after: string;
}

/** The diff of two documents. */
export interface RevisionDiff {
  readonly nodes: ReadonlyMap<string, DiffMark>;
  readonly edges: ReadonlyMap<string, DiffMark>;
  readonly changes: ReadonlyMap<string, readonly FieldChange[]>;
  /** The newer document plus what the older one had and the newer lacks. */
  readonly merged: CanvasDocument;
  /** Settings or name changes of the workflow itself. */
  readonly workflowChanges: readonly FieldChange[];
}

function short(value: unknown): string {
  if (value === undefined) return "—";
  const text = typeof value === "string" ? value : canonicalJson(value);
  return text.length > 160 ? `${text.slice(0, 157)}…` : text;
}

function fieldChanges(before: WorkflowNode, after: WorkflowNode): FieldChange[] {
  const changes: FieldChange[] = [];
  if (before.type !== after.type) changes.push({ field: "type", before: before.type, after: after.type });
  for (const key of ["label", "description"] as const) {
    if (before[key] !== after[key]) changes.push({ field: key, before: short(before[key]), after: short(after[key]) });
  }
  const oldConfig = before.config as Record<string, unknown>;
  const newConfig = after.config as Record<string, unknown>;
  for (const key of [...new Set([...Object.keys(oldConfig), ...Object.keys(newConfig)])].sort()) {
    if (canonicalJson(oldConfig[key] ?? null) !== canonicalJson(newConfig[key] ?? null) || (key in oldConfig) !== (key in newConfig)) {
      changes.push({ field: `config.${key}`, before: short(oldConfig[key]), after: short(newConfig[key]) });
    }
  }
  return changes;
}

/** Compares `before` (older) with `after` (newer). */
export function diffDocuments(before: CanvasDocument, after: CanvasDocument): RevisionDiff {
  const oldNodes = new Map(before.nodes.map((node) => [node.id, node]));
  const newNodes = new Map(after.nodes.map((node) => [node.id, node]));
  const nodes = new Map<string, DiffMark>();
  const changes = new Map<string, FieldChange[]>();
  for (const node of after.nodes) {
    const old = oldNodes.get(node.id);
    if (old === undefined) nodes.set(node.id, "added");
    else {
      const list = fieldChanges(old, node);
      if (list.length > 0) {
        nodes.set(node.id, "changed");
        changes.set(node.id, list);
      }
    }
  }
  const removedNodes = before.nodes.filter((node) => !newNodes.has(node.id));
  for (const node of removedNodes) nodes.set(node.id, "removed");

  const oldEdges = new Map(before.edges.map((edge) => [edge.id, edge]));
  const newEdgeIds = new Set(after.edges.map((edge) => edge.id));
  const edges = new Map<string, DiffMark>();
  for (const edge of after.edges) {
    const old = oldEdges.get(edge.id);
    if (old === undefined) edges.set(edge.id, "added");
    else if (canonicalJson(old) !== canonicalJson(edge)) edges.set(edge.id, "changed");
  }
  const removedEdges = before.edges.filter((edge) => !newEdgeIds.has(edge.id));
  for (const edge of removedEdges) edges.set(edge.id, "removed");

  const positions = { ...after.positions };
  for (const node of removedNodes) positions[node.id] = before.positions[node.id] ?? { x: 0, y: 0 };
  const workflowChanges: FieldChange[] = [];
  if (before.name !== after.name) workflowChanges.push({ field: "name", before: before.name, after: after.name });
  if (canonicalJson(before.settings ?? {}) !== canonicalJson(after.settings ?? {})) workflowChanges.push({ field: "settings", before: short(before.settings), after: short(after.settings) });
  return {
    nodes,
    edges,
    changes,
    merged: { ...after, nodes: [...after.nodes, ...removedNodes], edges: [...after.edges, ...removedEdges], positions },
    workflowChanges,
  };
}
