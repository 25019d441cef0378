/**
 * The two sides of a comparison as cards (A, B: run, node, chunks, tokens and latency after the divergence), with
 * the deltas between them (B − A) in the middle.
 */
import Link from "next/link";
import type { RouterOutputs } from "../trpc/router-types";
import { formatTokens, shortId } from "../ui/format";
import { formatDelta } from "./align-chunks";

type Comparison = RouterOutputs["sessions"]["compare"];
type Side = Comparison["left"];
type Stats = Comparison["stats"]["left"];

function seconds(milliseconds: number): string {
  return milliseconds < 1000 ? `${Math.round(milliseconds)} ms` : `${(milliseconds / 1000).toFixed(1)} s`;
}

function SideCard({ label, session, stats, testId }: { label: string; session: Side; stats: Stats; testId: string }) {
  return (
    <section data-testid={testId} data-session-id={session.id} className="min-w-0 rounded-md border border-line bg-surface px-3 py-2">
      <div className="flex min-w-0 items-center gap-2">
        <span className="grid size-5 shrink-0 place-items-center rounded bg-raised text-[11px] font-semibold">{label}</span>
        <Link
          prefetch={false}
          href={`/runs/${encodeURIComponent(session.runId)}?session=${encodeURIComponent(session.id)}`}
          className="min-w-0 truncate font-mono text-xs text-accent hover:underline"
          title={`Session ${session.id} of run ${session.runId}`}
        >
          {shortId(session.id)}
        </Link>
        {session.nodeId !== null ? <span className="min-w-0 truncate text-xs text-muted">{session.nodeId}</span> : null}
      </div>
      <dl className="mt-1.5 grid grid-cols-3 gap-2 text-xs">
        <div className="min-w-0">
          <dt className="text-[11px] text-muted">Chunks</dt>
          <dd className="tabular text-ink">{formatTokens(session.chunkCount)}</dd>
        </div>
        <div className="min-w-0">
          <dt className="text-[11px] text-muted">Tokens after</dt>
          <dd data-testid={`${testId}-tokens`} className="tabular text-ink">
            {formatTokens(stats.tokens)}
          </dd>
        </div>
        <div className="min-w-0">
          <dt className="text-[11px] text-muted">Latency after</dt>
          <dd className="tabular text-ink">{seconds(stats.latencyMs)}</dd>
        </div>
      </dl>
      <p className="mt-1 truncate text-[11px] text-faint">run {shortId(session.runId)}</p>
    </section>
  );
}

/** The summary. */
export function CompareSummary({ comparison }: { comparison: Comparison }) {
  const { left, right } = comparison.stats;
  return (
    <div className="grid shrink-0 min-w-0 grid-cols-1 items-stretch gap-2 border-b border-line bg-raised px-3 py-2 sm:grid-cols-[minmax(0,1fr)_auto_minmax(0,1fr)] sm:px-4">
      <SideCard label="A" session={comparison.left} stats={left} testId="compare-left" />
      <div data-testid="compare-deltas" className="flex min-w-0 flex-row items-center justify-center gap-3 text-xs tabular sm:flex-col sm:gap-1">
        <span className="text-[11px] text-muted">B − A</span>
        <span data-testid="compare-delta-tokens" title="tokens after the divergence, B minus A" className="font-medium text-ink">
          {formatDelta(right.tokens - left.tokens, " tok")}
        </span>
        <span data-testid="compare-delta-latency" title="model latency after the divergence, B minus A" className="font-medium text-ink">
          {formatDelta(right.latencyMs - left.latencyMs, " ms")}
        </span>
        <span title="chunks after the divergence, B minus A" className="text-muted">
          {formatDelta(right.chunks - left.chunks, " chunks")}
        </span>
      </div>
      <SideCard label="B" session={comparison.right} stats={right} testId="compare-right" />
    </div>
  );
}
