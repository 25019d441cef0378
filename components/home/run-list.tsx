"use client";
/**
 * A paged list of runs, newest first, from tRPC `runs.list` (cursor pages): status badge, run id linking to
 * /runs/<id>, workflow, start time, duration and tokens. "Older" / "Newer" walk the cursor pages; optional
 * filters by status and workflow (the /runs page). Polls while a run on the page is still moving.
 */
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { ChevronLeft, ChevronRight, History } from "lucide-react";
import Link from "next/link";
import { useState } from "react";
import { useTRPC } from "../trpc/trpc-context";
import { Button } from "../ui/button";
import { EmptyState } from "../ui/empty-state";
import { inputClasses } from "../ui/field";
import { formatDuration, formatTime, formatTokens, isActiveStatus, shortId } from "../ui/format";
import { StatusBadge } from "../ui/status-badge";

/** Statuses a run can have, for the filter. */
export const RUN_STATUSES = ["queued", "running", "waiting", "needs_review", "succeeded", "failed", "cancelled", "timed_out"] as const;
type RunStatusFilter = (typeof RUN_STATUSES)[number];

/** Props: page size, workflow names by id, and whether to show the filters. */
export interface RunListProps {
  pageSize: number;
  workflowNames: Record<string, string>;
  filters?: boolean;
  emptyHint?: string;
}

/** The list with its pager (and filters when asked). */
export function RunList({ pageSize, workflowNames, filters = false, emptyHint = "Run a workflow and it shows up here." }: RunListProps) {
  const trpc = useTRPC();
  const [cursors, setCursors] = useState<Array<string | undefined>>([undefined]);
  const [status, setStatus] = useState<RunStatusFilter | "">("");
  const [workflowId, setWorkflowId] = useState("");
  const cursor = cursors.at(-1);
  const query = useQuery({
    ...trpc.runs.list.queryOptions({
      limit: pageSize,
      ...(cursor === undefined ? {} : { cursor }),
      ...(status === "" ? {} : { status }),
      ...(workflowId === "" ? {} : { workflowId }),
    }),
    placeholderData: keepPreviousData,
    refetchInterval: (current) => (current.state.data?.runs.some((run) => isActiveStatus(run.status) && run.status !== "waiting") ? 2000 : false),
  });
  const runs = query.data?.runs ?? [];
  const nextCursor = query.data?.nextCursor ?? null;
  const page = cursors.length;
  const resetPaging = () => setCursors([undefined]);
  const filtered = status !== "" || workflowId !== "";

  return (
    <div className="min-w-0">
      {filters ? (
        <div className="mb-3 flex flex-wrap items-end gap-2" data-testid="run-filters">
          <label className="flex min-w-36 flex-col gap-1 text-xs font-medium text-muted">
            Status
            <select
              data-testid="run-filter-status"
              className={inputClasses()}
              value={status}
              onChange={(event) => {
                setStatus(event.target.value as RunStatusFilter | "");
                resetPaging();
              }}
            >
              <option value="">Any status</option>
              {RUN_STATUSES.map((value) => (
                <option key={value} value={value}>
                  {value.replace("_", " ")}
                </option>
              ))}
            </select>
          </label>
          <label className="flex min-w-48 flex-1 flex-col gap-1 text-xs font-medium text-muted sm:max-w-xs">
            Workflow
            <select
              data-testid="run-filter-workflow"
              className={inputClasses()}
              value={workflowId}
              onChange={(event) => {
                setWorkflowId(event.target.value);
                resetPaging();
              }}
            >
              <option value="">Any workflow</option>
              {Object.entries(workflowNames).map(([id, name]) => (
                <option key={id} value={id}>
                  {name}
                </option>
              ))}
            </select>
          </label>
        </div>
      ) : null}
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
                <span className="flex w-full flex-wrap items-center gap-x-4 gap-y-0.5 pl-28 text-xs text-muted tabular sm:w-auto sm:flex-nowrap sm:pl-0">
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
