"use client";
/**
 * A paged list of runs, newest first, from tRPC `runs.list` (cursor pages): status badge, run id linking to
 * /runs/<id>, workflow, start time, duration and tokens. "Older" / "Newer" walk the cursor pages; optional
 * filters by status, workflow and search, kept in the URL (the /runs page); with `comparePicker` a checkbox per row
 * picks runs for the compare bar (/runs). Refreshes live: every 10 s, every 2 s while a run on the page is queued or
 * running; with `renderedAt` a change of any run's status (or a run changed since that render) also refreshes the
 * server-rendered page around it (the home page's workflow cards show their latest run; page-refresh.ts).
 */
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { ChevronLeft, ChevronRight, History } from "lucide-react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { useTRPC } from "../trpc/trpc-context";
import { Button } from "../ui/button";
import { EmptyState } from "../ui/empty-state";
import { formatDuration, formatTime, formatTokens, shortId } from "../ui/format";
import { StatusBadge } from "../ui/status-badge";
import { RunCompareBar } from "./run-compare-bar";
import type { PickedRun } from "./run-compare-pick";
import { needsPageRefresh, runStatusKey } from "./page-refresh";
import { RunFilterBar } from "./run-filter-bar";
import { runFiltersQuery } from "./run-filters";
import { useRunFilters } from "./use-run-filters";

/** Refetch period while a listed run is queued or running, and otherwise. */
export const LIVE_REFETCH_MS = { moving: 2_000, idle: 10_000 } as const;

/** Props: page size, workflow names by id, whether to show the filters, and whether to refresh the page on changes. */
export interface RunListProps {
  pageSize: number;
  workflowNames: Record<string, string>;
  filters?: boolean;
  emptyHint?: string;
  /** The server's render time (ms) of the page around the list: a change of the runs after it refreshes the page. */
  renderedAt?: number;
  /** A checkbox per row and the compare bar (/runs). */
  comparePicker?: boolean;
}

/** The list with its pager (and filters when asked). */
export function RunList({ pageSize, workflowNames, filters = false, emptyHint = "Run a workflow and it shows up here.", renderedAt, comparePicker = false }: RunListProps) {
  const trpc = useTRPC();
  const router = useRouter();
  const [chosen, setChosen] = useRunFilters(filters);
  const filterKey = runFiltersQuery(chosen);
  // The cursor pages belong to one set of filters: new filters start again at the first page.
  const [paging, setPaging] = useState<{ key: string; cursors: Array<string | undefined> }>({ key: filterKey, cursors: [undefined] });
  const cursors = paging.key === filterKey ? paging.cursors : [undefined];
  const setCursors = (update: (list: Array<string | undefined>) => Array<string | undefined>) => setPaging({ key: filterKey, cursors: update(cursors) });
  const cursor = cursors.at(-1);
  const query = useQuery({
    ...trpc.runs.list.queryOptions({
      limit: pageSize,
      ...(cursor === undefined ? {} : { cursor }),
      ...(chosen.status === "" ? {} : { status: chosen.status }),
      ...(chosen.workflowId === "" ? {} : { workflowId: chosen.workflowId }),
      ...(chosen.search === "" ? {} : { search: chosen.search }),
    }),
    placeholderData: keepPreviousData,
    refetchInterval: (current) => (current.state.data?.runs.some((run) => run.status === "queued" || run.status === "running") ? LIVE_REFETCH_MS.moving : LIVE_REFETCH_MS.idle),
  });
  const runs = query.data?.runs ?? [];
  const nextCursor = query.data?.nextCursor ?? null;
  const page = cursors.length;
  const filtered = filterKey !== "";

  // Picked runs stay picked across pages and filters; their status follows the list while they are on it.
  const [pickedRuns, setPickedRuns] = useState<PickedRun[]>([]);
  const picked = pickedRuns.map((pick) => {
    const listed = runs.find((run) => run.id === pick.id);
    return listed === undefined ? pick : { ...pick, status: listed.status, startedAt: listed.startedAt };
  });
  const togglePick = (run: (typeof runs)[number]) =>
    setPickedRuns((list) =>
      list.some((pick) => pick.id === run.id)
        ? list.filter((pick) => pick.id !== run.id)
        : [...list, { id: run.id, workflowId: run.workflowId, workflowName: workflowNames[run.workflowId] ?? "Deleted workflow", status: run.status, startedAt: run.startedAt }],
    );

  const statusKey = runStatusKey(runs);
  const seenStatuses = useRef<string | null>(null);
  useEffect(() => {
    if (renderedAt === undefined || query.data === undefined || query.isPlaceholderData) return;
    if (needsPageRefresh(seenStatuses.current, query.data.runs, renderedAt)) router.refresh();
    seenStatuses.current = statusKey;
  }, [renderedAt, query.data, query.isPlaceholderData, statusKey, router]);

  return (
    <div className="min-w-0">
      {filters ? <RunFilterBar filters={chosen} onChange={setChosen} workflowNames={workflowNames} /> : null}
      {comparePicker ? <RunCompareBar picked={picked} onRemove={(id) => setPickedRuns((list) => list.filter((pick) => pick.id !== id))} onClear={() => setPickedRuns([])} /> : null}
      <div className="overflow-hidden rounded-lg border border-line bg-surface">
        {query.isError ? (
          <p role="alert" className="px-4 py-6 text-sm text-status-failed">
            Could not load runs: {query.error.message}
          </p>
        ) : runs.length === 0 && !query.isPending ? (
          <EmptyState icon={History} title={filtered ? "No runs match these filters" : "No runs yet"} testId="runs-empty">
            {filtered ? "Change or clear the filters." : emptyHint}
          </EmptyState>
        ) : (
          <ul data-testid="recent-runs" aria-busy={query.isFetching} className="divide-y divide-line">
            {query.isPending ? <li className="px-4 py-6 text-sm text-muted">Loading runs…</li> : null}
            {runs.map((run) => (
              <li key={run.id} data-testid="recent-run-row" data-run-id={run.id} className="relative flex flex-wrap items-center gap-x-4 gap-y-1 px-4 py-2.5 hover:bg-raised has-[a:focus-visible]:bg-raised has-[a:focus-visible]:ring-2 has-[a:focus-visible]:ring-focus has-[a:focus-visible]:ring-inset">
                {comparePicker ? (
                  <input
                    type="checkbox"
                    data-testid="recent-run-pick"
                    className="relative z-10 size-4 shrink-0 cursor-pointer accent-accent"
                    checked={pickedRuns.some((pick) => pick.id === run.id)}
                    onChange={() => togglePick(run)}
                    aria-label={`Pick ${workflowNames[run.workflowId] ?? "Deleted workflow"} ${shortId(run.id)} to compare`}
                  />
                ) : null}
                <StatusBadge status={run.status} testId="recent-run-status" className="w-24" />
                <Link
                  href={`/runs/${run.id}`}
                  className="min-w-0 flex-1 truncate text-sm font-medium text-ink after:absolute after:inset-0 focus-visible:outline-none"
                  data-testid="recent-run-link"
                  title={run.id}
                >
                  <span data-testid="recent-run-workflow">{workflowNames[run.workflowId] ?? "Deleted workflow"}</span>
                  <span className="ml-2 font-mono text-xs font-normal text-faint">{shortId(run.id)}</span>
                </Link>
                <span className={`flex w-full flex-wrap items-center gap-x-4 gap-y-0.5 ${comparePicker ? "pl-36" : "pl-28"} text-xs text-muted tabular sm:w-auto sm:flex-nowrap sm:pl-0`}>
                  <span className="whitespace-nowrap">{formatTime(run.startedAt ?? run.createdAt)}</span>
                  <span className="whitespace-nowrap sm:w-20 sm:text-right">{formatDuration(run.startedAt, run.finishedAt)}</span>
                  <span className="whitespace-nowrap sm:w-24 sm:text-right" data-testid="recent-run-tokens">
                    {formatTokens(run.tokensUsed)} tok
                  </span>
                </span>
              </li>
            ))}
          </ul>
        )}
        {page > 1 || nextCursor !== null ? (
          <nav aria-label="Run pages" className="flex items-center justify-between gap-2 border-t border-line px-3 py-2">
            <Button size="sm" variant="ghost" icon={ChevronLeft} disabled={page === 1} onClick={() => setCursors((list) => list.slice(0, -1))} data-testid="runs-newer">
              Newer
            </Button>
            <span className="text-xs text-muted tabular" data-testid="runs-page">
              Page {page}
            </span>
            <Button
              size="sm"
              variant="ghost"
              disabled={nextCursor === null || query.isFetching}
              onClick={() => nextCursor !== null && setCursors((list) => [...list, nextCursor])}
              data-testid="runs-older"
            >
              Older
              <ChevronRight className="size-3.5" aria-hidden="true" />
            </Button>
          </nav>
        ) : null}
      </div>
    </div>
  );
}
