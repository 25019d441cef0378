/** A run or session status as a coloured pill; the status text itself is what tests read. */

const COLOURS: Record<string, string> = {
  succeeded: "bg-emerald-100 text-emerald-800 dark:bg-emerald-900/50 dark:text-emerald-200",
  completed: "bg-emerald-100 text-emerald-800 dark:bg-emerald-900/50 dark:text-emerald-200",
  running: "bg-sky-100 text-sky-800 dark:bg-sky-900/50 dark:text-sky-200",
  queued: "bg-zinc-200 text-zinc-700 dark:bg-zinc-800 dark:text-zinc-200",
  waiting: "bg-amber-100 text-amber-800 dark:bg-amber-900/50 dark:text-amber-200",
  needs_review: "bg-orange-100 text-orange-800 dark:bg-orange-900/50 dark:text-orange-200",
  failed: "bg-red-100 text-red-800 dark:bg-red-900/50 dark:text-red-200",
  timed_out: "bg-red-100 text-red-800 dark:bg-red-900/50 dark:text-red-200",
  cancelled: "bg-zinc-200 text-zinc-600 dark:bg-zinc-800 dark:text-zinc-300",
};

/** Renders `status` (e.g. "succeeded") in a pill; `testId` names it for tests. */
export function StatusBadge({ status, testId }: { status: string; testId?: string }) {
  const colour = COLOURS[status] ?? "bg-zinc-200 text-zinc-700 dark:bg-zinc-800 dark:text-zinc-200";
  return (
    <span data-testid={testId} data-status={status} className={`inline-block rounded-full px-2 py-0.5 text-xs font-medium ${colour}`}>
      {status.replace("_", " ")}
    </span>
  );
}
