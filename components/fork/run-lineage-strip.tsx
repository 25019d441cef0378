"use client";
/**
 * The run's cross-run lineage under its header (`runs.lineage`): "Forked from run X at session S, chunk k" (a link
 * to that chunk in the original) and "Forks of this run" (each fork run with its status). Nothing when the run has
 * neither.
 */
import { useQuery } from "@tanstack/react-query";
import { GitBranch, GitFork } from "lucide-react";
import Link from "next/link";
import { useTRPC } from "../trpc/trpc-context";
import { shortId } from "../ui/format";
import { StatusBadge } from "../ui/status-badge";

function chunkHref(runId: string, sessionId: string, chunkIndex: number | null): string {
  const params = new URLSearchParams({ session: sessionId });
  if (chunkIndex !== null) params.set("chunk", String(chunkIndex));
  return `/runs/${encodeURIComponent(runId)}?${params.toString()}`;
}

/** Props: the run. */
export function RunLineageStrip({ runId }: { runId: string }) {
  const trpc = useTRPC();
  const lineage = useQuery(trpc.runs.lineage.queryOptions({ runId }, { staleTime: 5_000 }));
  const data = lineage.data;
  if (data === undefined || (data.forkedFrom === null && data.forks.length === 0)) return null;
  return (
    <div data-testid="run-lineage" className="flex min-w-0 shrink-0 flex-wrap items-center gap-x-4 gap-y-1 border-b border-line bg-raised px-3 py-1.5 text-xs sm:px-4">
      {data.forkedFrom !== null ? (
        <span className="inline-flex min-w-0 items-center gap-1.5 text-muted">
          <GitBranch className="size-3.5 shrink-0" aria-hidden="true" style={{ color: "var(--rath-lineage-fork)" }} />
          Forked from
          <Link
            prefetch={false}
            data-testid="run-forked-from"
            data-run-id={data.forkedFrom.runId}
            href={chunkHref(data.forkedFrom.runId, data.forkedFrom.sessionId, data.forkedFrom.chunkIndex)}
            className="min-w-0 truncate font-medium text-accent hover:underline"
            title={`Run ${data.forkedFrom.runId}, session ${data.forkedFrom.sessionId}, chunk ${data.forkedFrom.chunkIndex}`}
          >
            run {shortId(data.forkedFrom.runId)} · session {shortId(data.forkedFrom.sessionId)} · chunk {data.forkedFrom.chunkIndex}
          </Link>
        </span>
      ) : null}
      {data.forks.length > 0 ? (
        <span data-testid="run-forks" className="inline-flex min-w-0 flex-wrap items-center gap-1.5 text-muted">
          <GitFork className="size-3.5 shrink-0" aria-hidden="true" style={{ color: "var(--rath-lineage-fork)" }} />
          {data.forks.length === 1 ? "1 fork of this run:" : `${data.forks.length} forks of this run:`}
          {data.forks.slice(0, 8).map((fork) => (
            <Link
              key={`${fork.runId}:${fork.sessionId}`}
              prefetch={false}
              data-testid="run-fork-link"
              data-run-id={fork.runId}
              href={`/runs/${encodeURIComponent(fork.runId)}`}
              className="inline-flex items-center gap-1 rounded px-1 font-mono text-ink hover:bg-surface hover:text-accent"
              title={`Run ${fork.runId}, forked at session ${fork.sessionId}${fork.chunkIndex === null ? "" : `, chunk ${fork.chunkIndex}`}`}
            >
              {fork.status !== null ? <StatusBadge status={fork.status} compact /> : null}
              {shortId(fork.runId)}
            </Link>
          ))}
          {data.forks.length > 8 ? <span>and {data.forks.length - 8} more</span> : null}
        </span>
      ) : null}
    </div>
  );
}
