import { parseArgs } from "node:util";
import { renderProblems, renderTable } from "./inspect-table";
import { summariseFile, summariseSessions, type FileProblem, type SessionFacts } from "./inspect-summary";

/** Usage text of `rath inspect`. */
export const INSPECT_USAGE = `Usage: rath inspect FILE... [--json]

Summarises persisted-session files (either dialect, including *.jsonl.__partial__ files left by a crash),
lineage exports and run bundles. The format of each file is detected from its first record.

Options:
  --json      print one JSON object {"sessions":[...],"errors":[{"file","line","message"}]}
  -h, --help  show this help

Exit status: 0 when every file was read, 1 when a file is malformed (the others are still summarised),
2 on a usage error.
`;

/** Where `main` writes (the process streams by default; tests pass collectors). */
export interface Output {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

const processOutput: Output = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
};

/** `rath inspect FILE... [--json]`; resolves to the exit code. */
export async function main(args: readonly string[], output: Output = processOutput): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...args],
      allowPositionals: true,
      options: { json: { type: "boolean", default: false }, help: { type: "boolean", short: "h", default: false } },
    });
  } catch (error) {
    output.stderr(`rath inspect: ${(error as Error).message}\n\n${INSPECT_USAGE}`);
    return 2;
  }
  if (parsed.values.help) {
    output.stdout(INSPECT_USAGE);
    return 0;
  }
  const files = parsed.positionals;
  const json = parsed.values.json;
  if (files.length === 0) {
    output.stderr(`rath inspect: expected at least one FILE, found none\n\n${INSPECT_USAGE}`);
    return 2;
  }
  const facts: SessionFacts[] = [];
  const errors: FileProblem[] = [];
  for (const summary of await Promise.all(files.map(summariseFile))) {
    facts.push(...summary.sessions);
    if (summary.problem) errors.push(summary.problem);
  }
  // Usage is rolled up across all files: a session's parents may be in another one.
  const sessions = summariseSessions(facts);
  if (json) output.stdout(`${JSON.stringify({ sessions, errors })}\n`);
  else {
    output.stdout(renderTable(sessions));
    if (errors.length > 0) output.stderr(renderProblems(errors));
  }
  return errors.length > 0 ? 1 : 0;
}
