/**
 * Reading a workflow file the user picked for import (pure, no React): JSON first (a syntax error names its line
 * and column), then the spec validator shared with the server and the canvas, so every problem comes back with
 * where it is (node, edge or path in the document). Accepts a bare spec or an export `{ spec, layout }`.
 */
import { formatPath, type Problem } from "../../runtime/workflow-spec/problems";
import { validateWorkflowSpec } from "../../runtime/workflow-spec/validate";
import { WorkflowLayout } from "../../runtime/workflow-spec/workflow-layout";
import { isRecord } from "../../runtime/is-record";

/** One thing wrong with an imported file: where (line/column, node, edge or JSON path) and what. */
export interface ImportProblem {
  where: string;
  message: string;
}

/** The outcome of reading a file: a spec ready to save, or the problems (nothing may be saved then). */
export type ImportResult =
  | { ok: true; name: string; description: string; spec: unknown; layout: WorkflowLayout | null }
  | { ok: false; problems: ImportProblem[] };

/** Files larger than this are refused before parsing (the server's own spec limit is of the same order). */
export const MAX_IMPORT_BYTES = 2_000_000;

/** Line and column (1-based) of a character offset in `text`. */
export function lineColumnAt(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, offset));
  const lines = before.split("\n");
  return { line: lines.length, column: (lines.at(-1)?.length ?? 0) + 1 };
}

function syntaxProblem(text: string, error: unknown): ImportProblem {
  const message = error instanceof Error ? error.message : String(error);
  const lineColumn = /line (\d+) column (\d+)/.exec(message);
  if (lineColumn) return { where: `line ${lineColumn[1]}, column ${lineColumn[2]}`, message: `not valid JSON: ${message}` };
  const position = /position (\d+)/.exec(message);
  if (position) {
    const { line, column } = lineColumnAt(text, Number(position[1]));
    return { where: `line ${line}, column ${column}`, message: `not valid JSON: ${message}` };
  }
  return { where: "file", message: `not valid JSON: ${message}` };
}

function problemWhere(problem: Problem): string {
  const parts: string[] = [];
  if (problem.nodeId !== undefined) parts.push(`node ${problem.nodeId}`);
  if (problem.edgeId !== undefined) parts.push(`edge ${problem.edgeId}`);
  if (problem.path !== undefined && problem.path.length > 0) parts.push(formatPath(problem.path));
  return parts.length > 0 ? parts.join(" · ") : "spec";
}

/** Reads a picked file's text as a workflow to import. */
export function readImportFile(text: string): ImportResult {
  if (text.length > MAX_IMPORT_BYTES) {
    return { ok: false, problems: [{ where: "file", message: `the file is ${text.length} bytes; at most ${MAX_IMPORT_BYTES} bytes can be imported` }] };
  }
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    return { ok: false, problems: [syntaxProblem(text, error)] };
  }
  const wrapper = isRecord(document) && "spec" in document && !("nodes" in document) ? document : null;
  const spec = wrapper === null ? document : wrapper.spec;
  const layoutParse = wrapper !== null && "layout" in wrapper ? WorkflowLayout.safeParse(wrapper.layout) : null;
  if (layoutParse !== null && !layoutParse.success) {
    return { ok: false, problems: [{ where: "layout", message: "the layout is not { nodes: { <node id>: { x, y } } }" }] };
  }
  const result = validateWorkflowSpec(spec);
  if (!result.ok) return { ok: false, problems: result.problems.map((problem) => ({ where: problemWhere(problem), message: problem.message })) };
  const name = result.spec.name.trim() === "" ? "Imported workflow" : result.spec.name;
  return { ok: true, name, description: result.spec.description ?? "", spec: result.spec, layout: layoutParse?.success ? layoutParse.data : null };
}
