"use client";
/** The chunks of one session, fetched in pages through tRPC `sessions.chunks` ("Load more" fetches the next). */
import { useInfiniteQuery } from "@tanstack/react-query";
import { useTRPC } from "../trpc/trpc-context";
import { ChunkItem } from "./chunk-item";

const PAGE_SIZE = 50;

/** Props: the session, and whether its run is still active (then the pages are re-read every second). */
export interface ChunkListProps {
  sessionId: string;
  live: boolean;
}

/** Renders the selected session's chunks in index order. */
export function ChunkList({ sessionId, live }: ChunkListProps) {
  const trpc = useTRPC();
  const pages = useInfiniteQuery(
    trpc.sessions.chunks.infiniteQueryOptions(
      { sessionId, limit: PAGE_SIZE },
      { getNextPageParam: (page) => page.nextCursor ?? undefined, refetchInterval: live ? 1000 : false },
    ),
  );
  if (pages.isPending) return <p className="text-sm text-zinc-500">Loading chunks…</p>;
  if (pages.isError) {
    return (
      <p role="alert" className="text-sm text-red-700">
        {pages.error.message}
      </p>
    );
  }
  const chunks = pages.data.pages.flatMap((page) => page.chunks);
  return (
    <div data-testid="chunk-list" data-session-id={sessionId}>
      {chunks.length === 0 ? <p className="text-sm text-zinc-500">This session has no chunks.</p> : null}
      <ol className="space-y-2">
        {chunks.map((view) => (
          <ChunkItem key={view.index} view={view} />
        ))}
      </ol>
      {pages.hasNextPage ? (
        <button
          type="button"
          data-testid="chunks-load-more"
          onClick={() => void pages.fetchNextPage()}
          disabled={pages.isFetchingNextPage}
          className="mt-3 rounded-md border border-zinc-300 px-3 py-1 text-sm hover:bg-zinc-100 disabled:opacity-50 dark:border-zinc-700 dark:hover:bg-zinc-800"
        >
          {pages.isFetchingNextPage ? "Loading…" : "Load more"}
        </button>
      ) : null}
    </div>
  );
}
