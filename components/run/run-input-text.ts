/**
 * The run header's one-line text of a run's input or output: a string as is, a chunk's `text`, an imported run's
 * provenance (`{ imported: { file, run_id, workflow } }`, what run-import.ts stores as the input) as where it came
 * from, anything else as one line of JSON (a structured input must not push the graph down). Pure.
 */

function stringOr(value: unknown): string | null {
  return typeof value === "string" && value.trim() !== "" ? value : null;
}

/** Where an imported run came from, or null when `value` is not an imported run's provenance. */
export function importedOrigin(value: unknown): string | null {
  if (value === null || typeof value !== "object" || !("imported" in value)) return null;
  const origin = value.imported;
  if (origin === null || typeof origin !== "object") return null;
  const fields = origin as { file?: unknown; run_id?: unknown; workflow?: unknown };
  const workflow = stringOr(fields.workflow);
  const runId = stringOr(fields.run_id);
  // A workflow named by its id only (what an export writes) says nothing a person can read: left out.
  const named = workflow !== null && !/^wf_[0-9a-z]+$/i.test(workflow) ? `workflow ${workflow}` : null;
  const source = [named, runId === null ? null : `original run ${runId}`].filter((part) => part !== null);
  const from = stringOr(fields.file) ?? "a file";
  return `Imported from ${from}${source.length > 0 ? ` (${source.join(", ")})` : ""}`;
}

/** The text shown for a run's input or output (null when there is none). */
export function runValueText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === "string") return value;
  if (typeof value === "object" && typeof (value as { text?: unknown }).text === "string") return (value as { text: string }).text;
  return importedOrigin(value) ?? JSON.stringify(value);
}
