import type { FileProblem, SessionSummary } from "./inspect-summary";

const HEADINGS = ["ID", "KIND", "OPERATOR", "PARENTS", "CHUNKS", "CLOSED", "TOKENS", "TOOLS", "ERRORS"] as const;

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
    summary.cumulative_usage ? String(summary.cumulative_usage.total_tokens) : "-",
    summary.tool_calls === null ? "-" : String(summary.tool_calls),
    summary.tool_errors === null ? "-" : String(summary.tool_errors),
  ];
}

/** The human summary: one aligned row per session (parents shortened to 8 characters), then a totals line. */
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
  const tokens = sessions.reduce((sum, summary) => sum + (summary.cumulative_usage?.total_tokens ?? 0), 0);
  lines.push("", `${sessions.length} session(s), ${crashed} not closed (crashed or still being written), ${tokens} tokens`);
  return `${lines.join("\n")}\n`;
}

/** Problems as `file:line: message` lines. */
export function renderProblems(problems: readonly FileProblem[]): string {
  return problems.map((problem) => `${problem.file}${problem.line === null ? "" : `:${problem.line}`}: ${problem.message}\n`).join("");
}
