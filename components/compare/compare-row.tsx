/**
 * One aligned row of the compare view: a pair (equal, or changed with a word diff: removed words struck on the left,
 * added words marked on the right, and the token / latency delta of the pair), or a chunk one side has alone.
 * Text is rendered as React text children (inert), wrapping anywhere so long unbroken strings stay inside.
 */
import type { AlignedRow, DiffPart, IndexedChunk } from "./align-chunks";
import { chunkCost, comparableText, formatDelta, wordDiff } from "./align-chunks";

function Header({ entry, side }: { entry: IndexedChunk; side: "A" | "B" }) {
  const producer = entry.chunk.meta.producer;
  return (
    <div className="flex min-w-0 items-center gap-1.5 text-[11px] text-muted">
      <span className="font-semibold text-ink">{side}</span>
      <span className="tabular">#{entry.index}</span>
      <span className="font-mono">{entry.chunk.kind}</span>
      {producer ? <span className="min-w-0 truncate">· {producer}</span> : null}
    </div>
  );
}

// Diff marks keep the text's own ink (AA contrast in light and dark: the tint only colours the background) and carry
// the change by tint plus a line: struck through when removed, underlined when added.
const DIFF_REMOVED = "rounded-sm bg-status-failed/15 text-ink line-through decoration-status-failed decoration-2";
const DIFF_ADDED = "rounded-sm bg-status-succeeded/15 text-ink underline decoration-status-succeeded decoration-2 underline-offset-2";
const TEXT = "mt-1 max-h-80 overflow-y-auto whitespace-pre-wrap text-xs text-ink [overflow-wrap:anywhere]";

function Plain({ entry, side }: { entry: IndexedChunk; side: "A" | "B" }) {
  return (
    <div className="min-w-0">
      <Header entry={entry} side={side} />
      <pre className={`${TEXT} font-sans`}>{comparableText(entry.chunk)}</pre>
    </div>
  );
}

function Missing({ side }: { side: "A" | "B" }) {
  return <div className="min-w-0 rounded border border-dashed border-line px-2 py-3 text-center text-[11px] text-faint">{side} has no chunk here</div>;
}

/** One side of a changed pair: A shows the removed words struck through, B the added words underlined. */
function DiffSide({ entry, side, parts }: { entry: IndexedChunk; side: "A" | "B"; parts: readonly DiffPart[] }) {
  const own = side === "A" ? "removed" : "added";
  return (
    <div className="min-w-0">
      <Header entry={entry} side={side} />
      <pre className={`${TEXT} font-sans`}>
        {parts.map((part, key) =>
          part.change === "same" ? (
            <span key={key}>{part.text}</span>
          ) : part.change !== own ? null : own === "removed" ? (
            <del key={key} data-testid="diff-removed" className={DIFF_REMOVED}>
              {part.text}
            </del>
          ) : (
            <ins key={key} data-testid="diff-added" className={DIFF_ADDED}>
              {part.text}
            </ins>
          ),
        )}
      </pre>
    </div>
  );
}

function Changed({ left, right }: { left: IndexedChunk; right: IndexedChunk }) {
  const parts = wordDiff(comparableText(left.chunk), comparableText(right.chunk));
  return (
    <>
      <DiffSide entry={left} side="A" parts={parts} />
      <DiffSide entry={right} side="B" parts={parts} />
    </>
  );
}

function PairCost({ left, right }: { left: IndexedChunk; right: IndexedChunk }) {
  const a = chunkCost(left.chunk);
  const b = chunkCost(right.chunk);
  if (a.tokens === 0 && b.tokens === 0 && a.latencyMs === 0 && b.latencyMs === 0) return null;
  return (
    <div data-testid="compare-row-delta" className="col-span-full flex flex-wrap gap-x-3 text-[11px] text-muted tabular">
      <span title="tokens B − A">{formatDelta(b.tokens - a.tokens, " tok")}</span>
      <span title="latency B − A">{formatDelta(b.latencyMs - a.latencyMs, " ms")}</span>
    </div>
  );
}

/** The row. */
export function CompareRow({ row }: { row: AlignedRow }) {
  const state = row.kind === "pair" ? (row.same ? "same" : "changed") : row.kind === "left" ? "left-only" : "right-only";
  const border = state === "same" ? "border-line" : state === "changed" ? "border-status-waiting/60" : "border-accent/50";
  return (
    <div data-testid="compare-row" data-state={state} className={`grid min-w-0 grid-cols-1 gap-2 rounded-md border ${border} bg-surface px-2.5 py-2 sm:grid-cols-2`}>
      {row.kind === "pair" ? (
        row.same ? (
          <>
            <Plain entry={row.left} side="A" />
            <Plain entry={row.right} side="B" />
          </>
        ) : (
          <Changed left={row.left} right={row.right} />
        )
      ) : row.kind === "left" ? (
        <>
          <Plain entry={row.left} side="A" />
          <Missing side="B" />
        </>
      ) : (
        <>
          <Missing side="A" />
          <Plain entry={row.right} side="B" />
        </>
      )}
      {row.kind === "pair" ? <PairCost left={row.left} right={row.right} /> : null}
    </div>
  );
}
