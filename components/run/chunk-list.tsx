"use client";
/**
 * The selected session's chunks as a virtualised list (@tanstack/react-virtual): only the rows in view are
 * rendered, and only their pages are read from `sessions.chunks` (50 chunks a page), so a session of 50,000
 * chunks opens as fast as one of 5. Segments (`sessions.segments`) group inherited and own chunks; a merge shows
 * the prefix its parents share once, collapsed, then where the branches joined. A live session grows at the
 * end; when the list is scrolled to the bottom it follows.
 */
import { useQueries, useQuery } from "@tanstack/react-query";
import { useVirtualizer, type Virtualizer } from "@tanstack/react-virtual";
import { ChevronRight, GitMerge } from "lucide-react";
import { useEffect, useMemo, useRef, useState } from "react";
import { liveChunkAt, liveChunkOf, type LiveChunks, type LiveTail } from "../run-state/live-chunks";
import type { GraphSessionData } from "../run-state/live-graph";
import type { SessionChunk } from "../trpc/router-types";
import { useTRPC } from "../trpc/trpc-context";
import { paneSizeOptions } from "../ui/virtual-pane-size";
import { shortId } from "../ui/format";
import { ChunkItem } from "./chunk-item";
import { chunkPageInput, pageStarts } from "./chunk-pages";
import { chunkRows, fallbackSegments, growSegments, type ChunkRow, type ChunkSegment } from "./chunk-rows";

/** Props: the session (live), the chunks the stream carried, the selected chunk and the selection callback. */
export interface ChunkListProps {
  session: GraphSessionData;
  liveTail?: LiveTail;
  /** Every session's live tail and the run's sessions: an agent session's inherited chunks are its input's. */
  liveChunks?: LiveChunks;
  sessionById?: ReadonlyMap<string, GraphSessionData>;
  selectedIndex: number | null;
  onSelect: (index: number) => void;
  onSelectSession: (sessionId: string) => void;
}

const NOTHING_TOGGLED: ReadonlySet<string> = new Set();

const SEGMENT_TITLES: Record<ChunkSegment["kind"], string> = {
  shared: "Shared by both parents",
  inherited: "Inherited",
  repeated: "Shared prefix again",
  join: "Branches joined",
  own: "Added by this session",
};

function SegmentHeader({ row, onToggle, onSelectSession }: { row: Extract<ChunkRow, { type: "segment" }>; onToggle: () => void; onSelectSession: (id: string) => void }) {
  const { segment } = row;
  const count = segment.to - segment.from;
  return (
    // Wraps instead of cutting: the title is never truncated, the figures move to the next line when narrow.
    <div data-testid="chunk-segment" data-kind={segment.kind} data-collapsed={String(row.collapsed)} className="flex min-w-0 flex-wrap items-center gap-x-2 gap-y-0.5 pt-2 pb-1 text-[11px] text-muted">
      <button type="button" aria-expanded={!row.collapsed} onClick={onToggle} className="inline-flex max-w-full items-center gap-1 rounded text-left font-semibold tracking-wide uppercase hover:text-ink">
        <ChevronRight className={`size-3 shrink-0 transition-transform ${row.collapsed ? "" : "rotate-90"}`} aria-hidden="true" />
        <span data-testid="chunk-segment-title">{SEGMENT_TITLES[segment.kind]}</span>
      </button>
      <span className="shrink-0 tabular">
        #{segment.from}–#{segment.to - 1} · {count} chunk{count === 1 ? "" : "s"}
      </span>
      {segment.sameAs !== null ? <span className="shrink-0 text-faint">same as #{segment.sameAs.from}–#{segment.sameAs.to - 1}</span> : null}
      {segment.sourceSessionId !== null ? (
        <button type="button" onClick={() => onSelectSession(segment.sourceSessionId as string)} className="min-w-0 truncate font-mono text-faint hover:text-accent" title={`from session ${segment.sourceSessionId}`}>
          from {shortId(segment.sourceSessionId)}
        </button>
      ) : null}
      <span className="h-px min-w-4 flex-1 bg-line" aria-hidden="true" />
    </div>
  );
}

function JoinMarker({ at }: { at: number }) {
  return (
    <div data-testid="chunk-join" data-at={at} className="flex items-center gap-2 py-1 text-[11px] font-medium text-[color:var(--rath-lineage-merge)]">
      <GitMerge className="size-3.5" aria-hidden="true" />
      Branches joined here (chunk #{at} starts the second parent)
      <span className="h-px flex-1 bg-[color:var(--rath-lineage-merge)] opacity-40" aria-hidden="true" />
    </div>
  );
}

/**
 * The virtualizer's default choice of whether a row measured anew moves the scroll offset by its change (a row first
 * measured above the fold; one measured again only when wholly above it and not while scrolling back), except while
 * the list is at its end, following: then never.
 */
function adjustUnlessFollowing(atEnd: { current: boolean }): NonNullable<Virtualizer<HTMLDivElement, Element>["shouldAdjustScrollPositionOnItemSizeChange"]> {
  return (item, _delta, list) => {
    if (atEnd.current) return false;
    const offset = list.scrollOffset ?? 0;
    return list.itemSizeCache.has(item.key) ? item.start + item.size <= offset && list.scrollDirection !== "backward" : item.start < offset;
  };
}

/** The list. */
export function ChunkList({ session, liveTail, liveChunks, sessionById, selectedIndex, onSelect, onSelectSession }: ChunkListProps) {
  const trpc = useTRPC();
  // Only a merge's segments need the server (the prefix its parents share); any other session's are its inherited
  // chunks, then its own — what `fallbackSegments` says without a request.
  const isMerge = session.inheritedChunkCount > 0 && session.lineage.lineage_kind === "op_merge" && session.lineage.parent_session_ids.length === 2;
  const segmentsQuery = useQuery(trpc.sessions.segments.queryOptions({ sessionId: session.id }, { enabled: isMerge, staleTime: Number.POSITIVE_INFINITY }));
  // Segments the person opened or closed, for this session (the list may be kept while the session it shows changes:
  // a live run's newest, followed).
  const [toggledIn, setToggledIn] = useState<{ sessionId: string; keys: ReadonlySet<string> }>(() => ({ sessionId: session.id, keys: new Set() }));
  const toggled = toggledIn.sessionId === session.id ? toggledIn.keys : NOTHING_TOGGLED;
  const setToggled = (change: (current: ReadonlySet<string>) => ReadonlySet<string>): void =>
    setToggledIn((current) => ({ sessionId: session.id, keys: change(current.sessionId === session.id ? current.keys : NOTHING_TOGGLED) }));
  const segments = useMemo(
    () => growSegments(segmentsQuery.data?.segments ?? fallbackSegments(session.chunkCount, session.inheritedChunkCount, session.lineage.parent_session_ids[0] ?? null), session.chunkCount),
    [segmentsQuery.data, session.chunkCount, session.inheritedChunkCount, session.lineage.parent_session_ids],
  );
  const rows = useMemo(() => chunkRows(segments, toggled, selectedIndex), [segments, toggled, selectedIndex]);

  const scroller = useRef<HTMLDivElement>(null);
  const instance = useRef<Virtualizer<HTMLDivElement, Element> | null>(null);
  // Whether the list is at its end (then it follows a growing session), from the virtualizer's own offset, total
  // size and pane height: a scroll event reads no layout here. Updated when the offset moved (a scroll), not when
  // the content grew under an unmoved offset (the follow below takes it to the new end).
  const atEnd = useRef(true);
  const seen = useRef({ offset: 0, total: 0 });
  const follow = useRef<number | null>(null);
  const followEnd = useRef<() => void>(() => undefined);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: (index) => (rows[index]?.type === "chunk" ? 64 : 30),
    getItemKey: (index) => rows[index]?.key ?? index,
    overscan: 6,
    // Sizes come from the ResizeObserver only: reading a row's height when it mounts forces a layout of the whole
    // page (the graph included) once per row, which took over a second on a large run. Until observed, a row keeps
    // its last known size or the estimate; re-renders are not forced synchronously either.
    measureElement: (element, entry, instance) => {
      const box = entry?.borderBoxSize[0];
      if (box !== undefined) return Math.round(box.blockSize);
      const index = instance.indexFromElement(element);
      return instance.measurementsCache[index]?.size ?? (rows[index]?.type === "chunk" ? 64 : 30);
    },
    useFlushSync: false,
    onChange: (list) => {
      const offset = list.scrollOffset ?? 0;
      const total = list.getTotalSize();
      if (offset !== seen.current.offset) atEnd.current = total - offset - (list.scrollRect?.height ?? 0) < 48;
      const grew = total !== seen.current.total;
      seen.current = { offset, total };
      // Rows measured taller or shorter than estimated while following: back to the end (the virtualizer does not
      // compensate them while following, see below).
      if (grew) followEnd.current();
    },
    // A list that follows its end (nothing selected) starts there: rendering its first rows first read their page
    // (for a new session of a live run, chunks it inherited long ago) only to scroll away from them a frame later.
    initialOffset: () => (selectedIndex === null && instance.current !== null ? Math.max(0, instance.current.getTotalSize() - (instance.current.scrollRect?.height ?? 0)) : 0),
    ...paneSizeOptions("chunk-list"),
  });
  instance.current = virtualizer;
  // While the list follows its end, a row measured above the fold is not compensated by moving the scroll offset: the
  // follow writes the end anyway, and the virtualizer's compensation, clamped at the end the sizer had not reached
  // yet, was retried at every render with a read of the element's scroll height (a forced layout of the page per live
  // step while the run was small: 0.34 s of the first 40 steps in a profile).
  virtualizer.shouldAdjustScrollPositionOnItemSizeChange = selectedIndex === null ? adjustUnlessFollowing(atEnd) : undefined;
  const items = virtualizer.getVirtualItems();
  // Chunks the stream carried are shown as they are; only those before them are read, in pages that end where the
  // live tail starts (so a growing session does not change the last page's key, and read it again, per chunk).
  const readUpTo = Math.min(session.chunkCount, liveTail?.from ?? Number.POSITIVE_INFINITY);
  // Inherited chunks the stream carried with an ancestor (a new agent session's input) are not read again either.
  // (liveChunkOf looks in the session's own tail first.)
  const liveChunk = (index: number): SessionChunk | undefined =>
    liveChunks === undefined || sessionById === undefined ? liveChunkAt(liveTail, index) : liveChunkOf(liveChunks, sessionById, session.id, index);
  const visibleIndices = items.flatMap((item) => {
    const row = rows[item.index];
    return row?.type === "chunk" && row.index < readUpTo && liveChunk(row.index) === undefined ? [row.index] : [];
  });
  const starts = pageStarts(visibleIndices);
  const pages = useQueries({
    queries: starts.map((start) => trpc.sessions.chunks.queryOptions(chunkPageInput(session.id, start, readUpTo), { staleTime: Number.POSITIVE_INFINITY, placeholderData: (previous) => previous })),
  });
  const byIndex = new Map<number, SessionChunk>();
  for (const page of pages) for (const chunk of page.data?.chunks ?? []) byIndex.set(chunk.index, chunk);
  const chunkAt = (index: number): SessionChunk | undefined => byIndex.get(index) ?? liveChunk(index);
  const failedPage = pages.find((page) => page.isError);

  // Keep the selected chunk in view when it is chosen elsewhere (URL, jump to failure).
  const lastScrolled = useRef<number | null>(null);
  useEffect(() => {
    if (selectedIndex === null || selectedIndex === lastScrolled.current) return;
    const row = rows.findIndex((entry) => entry.type === "chunk" && entry.index === selectedIndex);
    if (row < 0) return;
    lastScrolled.current = selectedIndex;
    virtualizer.scrollToIndex(row, { align: "center" });
  }, [selectedIndex, rows, virtualizer]);

  // Follow a growing session while the list is at its end: at most one scroll per frame, written without reading the
  // layout first (the browser clamps it to the end). The virtualizer's scrollToIndex read the element's scroll
  // height at once and again on following frames until it settled, each read a layout of the whole page, for
  // every live event.
  // Another session shown in the same list (the newest of a live run, followed) starts at its end, as a new list would.
  const count = rows.length;
  const shownSession = useRef(session.id);
  followEnd.current = () => {
    if (!atEnd.current || count === 0 || selectedIndex !== null || follow.current !== null) return;
    follow.current = window.requestAnimationFrame(() => {
      follow.current = null;
      const element = scroller.current;
      // Past the end on purpose: the browser clamps it, so nothing needs measuring here.
      if (element !== null && atEnd.current) element.scrollTop = Number.MAX_SAFE_INTEGER;
    });
  };
  useEffect(() => {
    if (shownSession.current !== session.id) {
      shownSession.current = session.id;
      atEnd.current = true;
      lastScrolled.current = null;
    }
    followEnd.current();
  }, [count, virtualizer, selectedIndex, session.id]);
  useEffect(
    () => () => {
      if (follow.current !== null) window.cancelAnimationFrame(follow.current);
    },
    [],
  );

  return (
    // Strict containment: the list's own layout (a new row, a scroll) never lays out the rest of the page.
    <div
      ref={scroller}
      data-testid="chunk-list"
      data-session-id={session.id}
      data-chunk-count={session.chunkCount}
      className="h-full min-h-0 min-w-0 overflow-y-auto overflow-x-hidden px-3 pb-3 [contain:strict]"
    >
      {session.chunkCount === 0 ? <p className="py-6 text-center text-sm text-muted">This session has no chunks yet.</p> : null}
      {failedPage ? (
        <p role="alert" className="py-2 text-sm text-status-failed">
          Could not read chunks: {failedPage.error?.message}
        </p>
      ) : null}
      <div className="relative w-full" style={{ height: virtualizer.getTotalSize() }}>
        {items.map((item) => {
          const row = rows[item.index] as ChunkRow;
          return (
            <div key={item.key} data-index={item.index} ref={virtualizer.measureElement} className="absolute left-0 top-0 w-full min-w-0 py-0.5" style={{ transform: `translateY(${item.start}px)` }}>
              {row.type === "segment" ? (
                <SegmentHeader
                  row={row}
                  onSelectSession={onSelectSession}
                  onToggle={() =>
                    setToggled((current) => {
                      const next = new Set(current);
                      if (next.has(row.key)) next.delete(row.key);
                      else next.add(row.key);
                      return next;
                    })
                  }
                />
              ) : row.type === "join" ? (
                <JoinMarker at={row.at} />
              ) : chunkAt(row.index) !== undefined ? (
                <ChunkItem view={chunkAt(row.index) as SessionChunk} selected={row.index === selectedIndex} onSelect={onSelect} />
              ) : (
                <div data-testid="chunk-placeholder" className="h-14 animate-pulse rounded-md bg-raised">
                  <span className="sr-only">Loading chunk {row.index}</span>
                </div>
              )}
            </div>
          );
        })}
      </div>
    </div>
  );
}
