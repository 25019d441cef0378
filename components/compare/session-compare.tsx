"use client";
/**
 * Two sessions side by side (`sessions.compare`): each side (run, node, chunks, what it spent after the divergence)
 * with the token and latency deltas, their common ancestor and the divergence point, then the aligned chunks — the
 * common prefix as one collapsed row, then pairs (a changed pair shows a word diff) and chunks one side has alone.
 * The rows are virtualised; further pages of positions load on demand.
 */
import { useQueries } from "@tanstack/react-query";
import { useVirtualizer } from "@tanstack/react-virtual";
import { ArrowRightLeft, GitCommitVertical, Split } from "lucide-react";
import Link from "next/link";
import { useMemo, useRef, useState } from "react";
import type { RouterOutputs } from "../trpc/router-types";
import { useTRPC } from "../trpc/trpc-context";
import { Button } from "../ui/button";
import { EmptyState } from "../ui/empty-state";
import { formatTokens, shortId } from "../ui/format";
import { alignChunks, type AlignedRow, type IndexedChunk } from "./align-chunks";
import { CompareRow } from "./compare-row";
import { CompareSummary } from "./compare-summary";

type Comparison = RouterOutputs["sessions"]["compare"];
const PAGE_SIZE = 200;

type ViewRow = { type: "prefix"; count: number } | { type: "aligned"; row: AlignedRow } | { type: "more" };

/** Aligns each loaded page of positions (pages never straddle: page N+1 starts where page N ended). */
function rowsOf(pages: readonly Comparison[]): AlignedRow[] {
  return pages.flatMap((page) => {
    const left: IndexedChunk[] = [];
    const right: IndexedChunk[] = [];
    for (const difference of page.differences) {
      if (difference.left !== null) left.push({ index: difference.index, chunk: difference.left });
      if (difference.right !== null) right.push({ index: difference.index, chunk: difference.right });
    }
    return alignChunks(left, right);
  });
}

/** Props: the two session ids (A left, B right). */
export function SessionCompare({ leftId, rightId }: { leftId: string; rightId: string }) {
  const trpc = useTRPC();
  const [starts, setStarts] = useState<number[]>([]);
  const queries = useQueries({
    queries: [undefined, ...starts].map((fromIndex) =>
      trpc.sessions.compare.queryOptions({ leftId, rightId, limit: PAGE_SIZE, ...(fromIndex === undefined ? {} : { fromIndex }) }, { staleTime: Number.POSITIVE_INFINITY, retry: false }),
    ),
  });
  const first = queries[0]?.data;
  const pages = useMemo(() => queries.map((query) => query.data).filter((page): page is Comparison => page !== undefined), [queries]);
  const last = pages[pages.length - 1];
  const nextIndex = last?.nextIndex ?? null;
  const loadingMore = queries.slice(1).some((query) => query.isFetching);
  const rows = useMemo<ViewRow[]>(() => {
    if (first === undefined) return [];
    const aligned = rowsOf(pages).map((row) => ({ type: "aligned" as const, row }));
    return [...(first.commonPrefix > 0 ? [{ type: "prefix" as const, count: first.commonPrefix }] : []), ...aligned, ...(nextIndex !== null ? [{ type: "more" as const }] : [])];
  }, [first, pages, nextIndex]);
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({ count: rows.length, getScrollElement: () => scroller.current, estimateSize: () => 96, overscan: 6 });

  const error = queries[0]?.error;
  if (error) {
    return (
      <p role="alert" data-testid="compare-error" className="m-4 text-sm text-status-failed [overflow-wrap:anywhere]">
        Could not compare these sessions: {error.message}
      </p>
    );
  }
  if (first === undefined) return <div data-testid="compare-loading" className="m-4 h-40 animate-pulse rounded-md bg-raised" />;
  const identical = first.divergenceIndex === null;
  return (
    <div data-testid="compare-view" data-divergence={first.divergenceIndex ?? "none"} className="flex min-h-0 min-w-0 flex-1 flex-col">
      <CompareSummary comparison={first} />
      <div className="flex shrink-0 min-w-0 flex-wrap items-center gap-x-4 gap-y-1 border-b border-line px-3 py-2 text-xs text-muted sm:px-4">
        <span data-testid="compare-ancestor" data-session-id={first.commonAncestor?.id ?? ""} className="inline-flex min-w-0 items-center gap-1.5">
          <GitCommitVertical className="size-3.5 shrink-0" aria-hidden="true" />
          Common ancestor:
          {first.commonAncestor === null ? (
            <span className="text-ink">none — the sessions share no lineage</span>
          ) : (
            <Link
              prefetch={false}
              href={`/runs/${encodeURIComponent(first.commonAncestor.runId)}?session=${encodeURIComponent(first.commonAncestor.id)}`}
              className="min-w-0 truncate font-mono text-accent hover:underline"
              title={first.commonAncestor.id}
            >
              {shortId(first.commonAncestor.id)}
              {first.commonAncestor.nodeId !== null ? ` (${first.commonAncestor.nodeId})` : ""} · {first.commonAncestor.chunkCount} {first.commonAncestor.chunkCount === 1 ? "chunk" : "chunks"}
            </Link>
          )}
        </span>
        <span data-testid="compare-divergence" className="inline-flex items-center gap-1.5">
          <Split className="size-3.5 shrink-0" aria-hidden="true" />
          {identical ? <span className="text-ink">Identical chunks</span> : <span className="text-ink">Diverge at chunk {first.divergenceIndex}</span>}
          <span className="tabular">({formatTokens(first.commonPrefix)} shared)</span>
        </span>
      </div>
      {identical && rows.length <= 1 ? (
        <EmptyState icon={ArrowRightLeft} title="No differences" testId="compare-identical">
          Both sessions hold the same {first.commonPrefix} chunks.
        </EmptyState>
      ) : (
        <div ref={scroller} data-testid="compare-rows" className="min-h-0 min-w-0 flex-1 overflow-y-auto overflow-x-hidden">
          <div className="relative w-full" style={{ height: virtualizer.getTotalSize() }}>
            {virtualizer.getVirtualItems().map((item) => {
              const row = rows[item.index] as ViewRow;
              return (
                <div key={item.key} data-index={item.index} ref={virtualizer.measureElement} className="absolute left-0 top-0 w-full min-w-0 px-3 py-1 sm:px-4" style={{ transform: `translateY(${item.start}px)` }}>
                  {row.type === "prefix" ? (
                    <div data-testid="compare-prefix" data-count={row.count} className="rounded-md border border-dashed border-line bg-raised px-3 py-2 text-xs text-muted">
                      {row.count === 1 ? "Chunk 0 is the same in both sessions (collapsed)." : `Chunks 0–${row.count - 1} are the same in both sessions (${row.count} shared chunks, collapsed).`}
                    </div>
                  ) : row.type === "more" ? (
                    <div className="flex justify-center py-1">
                      <Button size="sm" data-testid="compare-more" disabled={loadingMore || nextIndex === null} onClick={() => nextIndex !== null && setStarts([...starts, nextIndex])}>
                        {loadingMore ? "Loading…" : "Load more chunks"}
                      </Button>
                    </div>
                  ) : (
                    <CompareRow row={row.row} />
                  )}
                </div>
              );
            })}
          </div>
        </div>
      )}
    </div>
  );
}
