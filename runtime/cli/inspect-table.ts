import type { FileProblem, SessionSummary } from "./inspect-summary";

const HEADINGS = ["ID", "KIND", "OPERATOR", "PARENTS", "CHUNKS", "CLOSED", "OWN", "CUMULATIVE", "TOOLS", "ERRORS"] as const;

function closedText(closed: boolean | null): string {
  if (closed === null) return "-";
  return closed ? "yes" : "CRASHED";
}

function row(summary: SessionSummary): string[] {
  return [
    summary.id,
    summary.lineage_kind,
    summary.lineage_operator,
    summary.parent_session_ids.length === 0 ? "-" : summary.parent_session_ids.map((id) => id.slice(0, 8)).join(","),
    String(summary.chunk_count),
    closedText(summary.closed),
    summary.own_usage ? String(summary.own_usage.total_tokens) : "-",
    `${summary.cumulative_usage ? String(summary.cumulative_usage.total_tokens) : "-"}${summary.ancestors_complete ? "" : "*"}`,
    summary.tool_calls === null ? "-" : String(summary.tool_calls),
    summary.tool_errors === null ? "-" : String(summary.tool_errors),
  ];
}

/**
 * The human summary: one aligned row per session (parents shortened to 8 characters; OWN = tokens of the chunks
 * the session added itself, CUMULATIVE = with every distinct ancestor's), then a totals line.
 */
export function renderTable(sessions: readonly SessionSummary[]): string {
  const rows = [HEADINGS as readonly string[], ...sessions.map(row)];
  const widths = HEADINGS.map((_, column) => Math.max(...rows.map((cells) => (cells[column] ?? "").length)));
  const lines = rows.map((cells) =>
    cells
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join("  ")
      .trimEnd(),
  );
  const crashed = sessions.filter((summary) => summary.closed === false).length;
  const unknown = sessions.filter((summary) => summary.closed === null).length;
  // Each session once (a session can be in a file and in a lineage export): its own tokens are counted once.
  const own = new Map(sessions.map((summary) => [summary.id, summary.own_usage?.total_tokens ?? 0]));
  const tokens = [...own.values()].reduce((sum, value) => sum + value, 0);
  const closedNote = unknown > 0 ? ` (${unknown} from lineage exports, which do not say)` : "";
  lines.push("", `${sessions.length} session(s), ${crashed} not closed (crashed or still being written)${closedNote}, ${tokens} tokens spent (own usage of each session, once)`);
  if (sessions.some((summary) => !summary.ancestors_complete)) lines.push("* some ancestors are in none of the files given: CUMULATIVE counts only those that are");
  return `${lines.join("\n")}\n`;
}

/** Problems as `file:line: message` lines. */
export function renderProblems(problems: readonly FileProblem[]): string {
  return problems.map((problem) => `${problem.file}${problem.line === null ? "" : `:${problem.line}`}: ${problem.message}\n`).join("");
}
