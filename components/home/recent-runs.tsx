/** The recent runs table of the home page: status, workflow, started, duration, tokens; each row opens the run. */
import Link from "next/link";
import { formatDuration, formatTime, formatTokens, shortId } from "../ui/format";
import { StatusBadge } from "../ui/status-badge";
import type { RecentRun } from "./home-data";

/** Renders the runs newest first (an empty state when there are none). */
export function RecentRuns({ runs }: { runs: RecentRun[] }) {
  if (runs.length === 0) {
    return (
      <p data-testid="runs-empty" className="text-sm text-zinc-500">
        No runs yet. Start one from a workflow above.
      </p>
    );
  }
  return (
    <div className="overflow-x-auto rounded-lg border border-zinc-200 bg-white dark:border-zinc-800 dark:bg-zinc-900">
      <table className="w-full text-left text-sm" data-testid="recent-runs">
        <thead className="border-b border-zinc-200 text-xs uppercase tracking-wide text-zinc-500 dark:border-zinc-800">
          <tr>
            <th className="px-3 py-2 font-medium">Status</th>
            <th className="px-3 py-2 font-medium">Run</th>
            <th className="px-3 py-2 font-medium">Workflow</th>
            <th className="px-3 py-2 font-medium">Started</th>
            <th className="px-3 py-2 font-medium">Duration</th>
            <th className="px-3 py-2 text-right font-medium">Tokens</th>
          </tr>
        </thead>
        <tbody>
          {runs.map((run) => (
            <tr key={run.id} data-testid="recent-run-row" data-run-id={run.id} className="border-b border-zinc-100 last:border-0 dark:border-zinc-800">
              <td className="px-3 py-2">
                <StatusBadge status={run.status} testId="recent-run-status" />
              </td>
              <td className="px-3 py-2 font-mono text-xs">
                <Link href={`/runs/${run.id}`} className="text-sky-700 hover:underline dark:text-sky-400" title={run.id}>
                  {shortId(run.id)}
                </Link>
              </td>
              <td className="px-3 py-2" data-testid="recent-run-workflow">
                {run.workflowName}
              </td>
              <td className="px-3 py-2 whitespace-nowrap text-zinc-600 dark:text-zinc-400">{formatTime(run.startedAt ?? run.createdAt)}</td>
              <td className="px-3 py-2 whitespace-nowrap">{formatDuration(run.startedAt, run.finishedAt)}</td>
              <td className="px-3 py-2 text-right tabular-nums" data-testid="recent-run-tokens">
                {formatTokens(run.tokensUsed)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
