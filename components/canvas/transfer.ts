/**
 * Export and import of a workflow as one JSON file: `{ format: "rath-workflow", version: 1, spec, layout }`.
 * Import also accepts a bare spec. Reading checks the file with the spec validator and reports every problem; a
 * file that is not JSON or not a workflow at all is refused with a message naming what is wrong. Pure.
 */
import type { Problem } from "../../runtime/workflow-spec/problems";
import { validateWorkflowSpec } from "../../runtime/workflow-spec/validate";
import { toLayout, toSpec, documentFromSpec, type CanvasDocument } from "./canvas-document";
import { isRecord } from "../../runtime/is-record";

/** The file format tag. */
export const EXPORT_FORMAT = "rath-workflow";

/** The export file's text for a document. */
export function exportText(document: CanvasDocument): string {
  return `${JSON.stringify({ format: EXPORT_FORMAT, version: 1, spec: toSpec(document), layout: toLayout(document) }, null, 2)}\n`;
}

/** A file name for an export: the workflow's name, made safe. */
export function exportFileName(name: string): string {
  const safe = name.trim().toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 60);
  return `${safe === "" ? "workflow" : safe}.rath.json`;
}

/** The outcome of reading an import file. */
export type ImportResult =
  | { ok: true; document: CanvasDocument; problems: readonly Problem[] }
  | { ok: false; message: string };

/** Reads an import file's text. A workflow with problems is still a workflow: it comes back with its problems. */
export function readImport(text: string, fallbackName: string): ImportResult {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, message: `The file is not JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (!isRecord(value)) return { ok: false, message: "The file holds no workflow: expected a JSON object with a spec." };
  const wrapped = value.format === EXPORT_FORMAT || ("spec" in value && isRecord(value.spec));
  if (value.format !== undefined && value.format !== EXPORT_FORMAT) return { ok: false, message: `Unknown file format ${JSON.stringify(value.format)}; expected '${EXPORT_FORMAT}'.` };
  const spec = wrapped ? value.spec : value;
  const layout = wrapped ? value.layout : undefined;
  if (!isRecord(spec)) return { ok: false, message: "The file's spec is not a JSON object." };
  if (!Array.isArray(spec.nodes)) return { ok: false, message: "The file's spec has no nodes array: it is not a workflow spec." };
  if (!Array.isArray(spec.edges)) return { ok: false, message: "The file's spec has no edges array: it is not a workflow spec." };
  if (layout !== undefined && !(isRecord(layout) && isRecord(layout.nodes))) return { ok: false, message: "The file's layout is not { nodes: { id: { x, y } } }." };
  const result = validateWorkflowSpec(spec);
  return { ok: true, document: documentFromSpec(spec, layout, fallbackName), problems: result.ok ? [] : result.problems };
}
