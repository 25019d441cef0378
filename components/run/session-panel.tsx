"use client";
/**
 * The selected session: who produced it (canvas node label and id, with a link to that node in the editor at the
 * run's revision), its lineage (kind, parents to jump to), its status, usage (own, with ancestors, its branch
 * subtree, the run — each computed from own usage, so merges never count twice — with their cost where the models
 * are priced in settings), then its chunks.
 */
import { ExternalLink, MousePointerClick } from "lucide-react";
import Link from "next/link";
import { useMemo, useRef } from "react";
import type { Usage } from "../../runtime/session/usage";
import { canvasNodeHref } from "../canvas/revision-link";
import type { GraphSessionData } from "../run-state/live-graph";
import { CopyableId } from "../ui/copyable-id";
import { EmptyState } from "../ui/empty-state";
import { formatTokens, shortId } from "../ui/format";
import { lineageEdgeKind, lineageStyle } from "../ui/lineage-style";
import { StatusBadge } from "../ui/status-badge";
import type { LiveChunks, LiveTail } from "../run-state/live-chunks";
import { ChunkList } from "./chunk-list";
import { chunkListKey, type ChunkListKey } from "./chunk-list-key";
import { CostValue } from "./cost-value";
import { costOf, type CostFigure } from "./run-costs";
import type { RunCostInputs } from "./use-run-costs";
import { sessionUsageSets, sumOwnUsage, type SessionUsageSets } from "./usage-views";

/** Props of the panel. */
export interface SessionPanelProps {
  sessions: readonly GraphSessionData[];
  session: GraphSessionData | null;
  labels: Readonly<Record<string, string>>;
  /** The workflow, for the "Open node" link to the editor; null where there is no editor (a shared run). */
  workflowId: string | null;
  /** The revision the run ran (the one that produced its sessions): the editor opens it read-only. */
  revisionId: string;
  revisionNumber: number | null;
  selectedChunk: number | null;
  onSelectChunk: (index: number) => void;
  onSelectSession: (sessionId: string) => void;
  /** Prices and usage by model (null while loading): each usage figure gets its cost. */
  costs: RunCostInputs | null;
  /** The session's chunks the stream carried (shown without reading them again). */
  liveTail?: LiveTail;
  /** Every session's live tail, and the sessions by id (an agent session's inherited chunks are its input's). */
  liveChunks?: LiveChunks;
  sessionById?: ReadonlyMap<string, GraphSessionData>;
  /**
   * The panel shows the default session (a live run's newest) and follows it: the chunk list is kept from session to
   * session instead of mounted again for each (a new list per live step re-rendered every row and read its layout).
   */
  following?: boolean;
}

function UsageCell({ label, usage, cost, testId, hint }: { label: string; usage: Usage | null; cost: CostFigure | null; testId: string; hint: string }) {
  return (
    <div className="min-w-0">
      <dt className="truncate text-[11px] text-muted" title={hint}>
        {label}
      </dt>
      <dd data-testid={testId} data-total={usage?.total_tokens ?? 0} className="text-sm font-medium tabular text-ink" title={usage === null ? hint : `${hint}: ${usage.prompt_tokens} prompt + ${usage.completion_tokens} completion`}>
        {usage === null ? "—" : formatTokens(usage.total_tokens)}
      </dd>
      <dd className="text-[11px] tabular text-muted">
        <CostValue cost={cost} testId={`${testId}-cost`} />
      </dd>
    </div>
  );
}

/** The four usage figures of the selected session, with their costs. */
function usageFigures(sessions: readonly GraphSessionData[], sets: SessionUsageSets, costs: RunCostInputs | null) {
  const byId = new Map(sessions.map((session) => [session.id, session]));
  const figure = (ids: ReadonlySet<string>) => ({ usage: sumOwnUsage(ids, byId), cost: costs === null ? null : costOf(ids, costs.usage, costs.prices) });
  return { own: figure(sets.own), cumulative: figure(sets.cumulative), subtree: figure(sets.subtree), run: figure(sets.run) };
}

/** The panel. */
export function SessionPanel({ sessions, session, labels, workflowId, revisionId, revisionNumber, selectedChunk, onSelectChunk, onSelectSession, costs, liveTail, liveChunks, sessionById, following = false }: SessionPanelProps) {
  const sets = useMemo(() => (session === null ? null : sessionUsageSets(sessions, session.id)), [sessions, session]);
  const usage = useMemo(() => (sets === null ? null : usageFigures(sessions, sets, costs)), [sessions, sets, costs]);
  // Choosing a chunk of the followed session keeps its list (and the focused row) mounted; see chunk-list-key.ts.
  const listKeyRef = useRef<ChunkListKey | null>(null);
  if (session !== null) listKeyRef.current = chunkListKey(listKeyRef.current, following, session.id);
  const listKey = listKeyRef.current?.key ?? "none";
  if (session === null) {
    return (
      <EmptyState icon={MousePointerClick} title="No session selected" testId="session-empty">
        Click a node in the graph to read its chunks.
      </EmptyState>
    );
  }
  const kind = lineageStyle(lineageEdgeKind(session.lineage.lineage_kind));
  const KindIcon = kind.icon;
  const label = session.nodeId === null ? null : (labels[session.nodeId] ?? session.nodeId);
  const failed = session.toolErrors !== null || session.status === "failed";
  return (
    <div data-testid="session-panel" data-session-id={session.id} className="flex h-full min-h-0 min-w-0 flex-col">
      <div className="shrink-0 space-y-2 border-b border-line px-3 py-2">
        <div className="flex min-w-0 items-center gap-2">
          <h2 className="min-w-0 truncate text-sm font-semibold" title={label ?? undefined}>
            {label ?? "Session"}
          </h2>
          {session.nodeId !== null ? <span className="truncate font-mono text-[11px] text-faint">{session.nodeId}</span> : null}
          <StatusBadge status={failed ? "failed" : "succeeded"} testId="session-status" className="ml-auto" />
        </div>
        <div className="flex min-w-0 flex-wrap items-center gap-x-3 gap-y-1 text-xs text-muted">
          <CopyableId id={session.id} testId="session-id" />
          <span className="inline-flex items-center gap-1" title={kind.description} data-testid="session-lineage" data-kind={session.lineage.lineage_kind}>
            <KindIcon className="size-3" aria-hidden="true" style={{ color: kind.stroke }} /> {kind.label}
          </span>
          <span className="tabular">{session.chunkCount} chunks</span>
          {session.lineage.parent_session_ids.length > 0 ? (
            <span className="inline-flex min-w-0 flex-wrap items-center gap-1">
              from
              {session.lineage.parent_session_ids.map((parent) => (
                <button key={parent} type="button" data-testid="session-parent" onClick={() => onSelectSession(parent)} className="rounded px-0.5 font-mono text-[11px] hover:bg-raised hover:text-accent" title={parent}>
                  {shortId(parent)}
                </button>
              ))}
            </span>
          ) : null}
          {session.nodeId !== null && workflowId !== null ? (
            <Link prefetch={false} data-testid="canvas-node-link" href={canvasNodeHref(workflowId, revisionId, session.nodeId)} className="ml-auto inline-flex items-center gap-1 text-accent hover:underline">
              Open node{revisionNumber === null ? "" : ` (rev ${revisionNumber})`} <ExternalLink className="size-3" aria-hidden="true" />
            </Link>
          ) : null}
        </div>
        {usage !== null ? (
          <dl data-testid="session-usage" className="grid grid-cols-4 gap-2 rounded-md bg-raised px-2 py-1.5">
            <UsageCell label="Own" {...usage.own} testId="usage-own" hint="tokens of this session's own chunks" />
            <UsageCell label="With ancestors" {...usage.cumulative} testId="usage-cumulative" hint="own plus every distinct ancestor's own tokens" />
            <UsageCell label="Branch" {...usage.subtree} testId="usage-subtree" hint="own plus every distinct descendant's own tokens" />
            <UsageCell label="Run" {...usage.run} testId="usage-run" hint="every session's own tokens, each once" />
          </dl>
        ) : null}
      </div>
      <div className="min-h-0 flex-1 pt-1">
        <ChunkList key={listKey} session={session} liveTail={liveTail} liveChunks={liveChunks} sessionById={sessionById} selectedIndex={selectedChunk} onSelect={onSelectChunk} onSelectSession={onSelectSession} />
      </div>
    </div>
  );
}
