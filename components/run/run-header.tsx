"use client";
/**
 * The run page's header: the workflow (linked), the run id, status, live indicator, the node running now, tokens and
 * cost, run controls; then the input and output (cut, with "Show all"), and the run's errors, each a link to where it
 * happened, with "Jump to failure".
 */
import { Crosshair, Eye, TriangleAlert } from "lucide-react";
import Link from "next/link";
import { useEffect, useState, type ReactNode } from "react";
import { LongText } from "../inspector/long-text";
import type { RunDetail } from "../trpc/router-types";
import { Button } from "../ui/button";
import { CopyableId } from "../ui/copyable-id";
import { DemoProviderLabel } from "../ui/demo-provider-label";
import { formatDuration, formatTokens } from "../ui/format";
import { StatusBadge } from "../ui/status-badge";
import { ShareButton } from "../share/share-button";
import { CostValue } from "./cost-value";
import { LiveIndicator } from "./live-indicator";
import type { CostFigure } from "./run-costs";
import { runDocumentTitle } from "./run-title";
import { RunControls } from "./run-controls";
import { runValueText } from "./run-input-text";
import type { RunErrorEntry } from "./run-errors";
import type { StreamState } from "./use-run-live";

/** Props of the header. */
export interface RunHeaderProps {
  detail: RunDetail;
  workflowName: string;
  usesDemoProvider: boolean;
  stream: StreamState;
  reconnects: number;
  lastSeq: number;
  runningNode: { nodeId: string; label: string } | null;
  errors: readonly RunErrorEntry[];
  onJump: (entry: RunErrorEntry) => void;
  onJumpToFailure: (() => void) | null;
  /** More actions beside the run controls (e.g. Replay). */
  actions?: ReactNode;
  /** A shared run: the workflow name is not a link, and there are no run controls and no Share button. */
  readOnly?: boolean;
  /** Tokens of the run from its sessions' own usage (null before the graph is read: the run's own count is shown). */
  runTokens?: number | null;
  /** The run's cost at the prices in settings (null while loading). */
  runCost?: CostFigure | null;
}


/** The header. */
export function RunHeader({ detail, workflowName, usesDemoProvider, stream, reconnects, lastSeq, runningNode, errors, onJump, onJumpToFailure, actions, readOnly = false, runTokens = null, runCost = null }: RunHeaderProps) {
  const run = detail.run;
  const input = runValueText(run.input);
  const output = runValueText(run.output);
  // No start or no end (an imported run, one still queued): no duration, rather than a lone dash after the cost.
  const duration = formatDuration(run.startedAt, run.finishedAt);
  const [showErrors, setShowErrors] = useState(false);
  const shownErrors = showErrors ? errors : errors.slice(0, 2);
  // The server renders the title once; the tab follows the live status (a shared run keeps its own title).
  useEffect(() => {
    if (!readOnly) document.title = runDocumentTitle(workflowName, run.status);
  }, [readOnly, workflowName, run.status]);
  return (
    <header className="shrink-0 border-b border-line bg-surface px-3 py-2 sm:px-4">
      <div className="flex min-w-0 flex-wrap items-center gap-x-3 gap-y-1.5">
        <h1 className="flex min-w-0 max-w-full items-center gap-1.5 text-base font-semibold tracking-tight">
          {readOnly ? (
            <span data-testid="run-workflow-name" className="min-w-0 truncate" title={workflowName}>
              {workflowName}
            </span>
          ) : (
            <Link prefetch={false} href={`/workflows/${encodeURIComponent(run.workflowId)}`} data-testid="run-workflow-link" className="min-w-0 truncate hover:underline" title={`Open workflow ${workflowName}`}>
              {workflowName}
            </Link>
          )}
          <CopyableId id={run.id} testId="run-id" />
        </h1>
        <StatusBadge status={run.status} testId="run-status" />
        {readOnly ? (
          <span data-testid="read-only-badge" title="You are viewing a shared link: you can read this run, not change it" className="inline-flex items-center gap-1 rounded-full border border-line px-2 py-0.5 text-xs text-muted">
            <Eye className="size-3" aria-hidden="true" />
            Read-only link
          </span>
        ) : null}
        <LiveIndicator state={stream} reconnects={reconnects} lastSeq={lastSeq} />
        {usesDemoProvider ? <DemoProviderLabel /> : null}
        {runningNode !== null ? (
          <span data-testid="running-node" data-node-id={runningNode.nodeId} className="inline-flex min-w-0 items-center gap-1 text-xs text-status-running">
            <StatusBadge status="running" compact />
            <span className="truncate">running {runningNode.label}</span>
          </span>
        ) : null}
        <span className="ml-auto flex shrink-0 items-center gap-3 text-xs text-muted tabular">
          <span title="Tokens the models reported for this run" data-testid="run-tokens">
            {formatTokens(Math.max(runTokens ?? 0, run.tokensUsed))} tok
          </span>
          <CostValue cost={runCost} testId="run-cost" />
          {duration === "—" ? null : (
            <span title="Duration" data-testid="run-duration">
              {duration}
            </span>
          )}
        </span>
        {readOnly ? null : (
          <div className="flex shrink-0 flex-wrap items-center gap-1.5">
            {actions}
            <ShareButton runId={run.id} />
            <RunControls detail={detail} />
          </div>
        )}
      </div>
      <div className="mt-1.5 grid min-w-0 gap-x-4 gap-y-1 text-xs sm:grid-cols-2">
        <div className="flex min-w-0 gap-1.5">
          <span className="shrink-0 text-muted">Input</span>
          <div className="max-h-40 min-w-0 flex-1 overflow-y-auto">
            <LongText text={input ?? "(default)"} limit={160} testId="run-input-text" className="text-xs" />
          </div>
        </div>
        {output !== null ? (
          <div className="flex min-w-0 gap-1.5">
            <span className="shrink-0 text-muted">Output</span>
            <div className="max-h-40 min-w-0 flex-1 overflow-y-auto">
              <LongText text={output} limit={160} testId="run-output" className="text-xs" />
            </div>
          </div>
        ) : null}
      </div>
      {errors.length > 0 ? (
        <div data-testid="run-errors" className="mt-1.5 flex min-w-0 flex-col gap-1 rounded-md border border-line bg-raised px-2 py-1.5">
          <div className="flex items-center gap-2 text-xs font-semibold text-status-failed">
            <TriangleAlert className="size-3.5" aria-hidden="true" />
            {errors.length} error{errors.length === 1 ? "" : "s"}
            {onJumpToFailure !== null ? (
              <Button size="sm" variant="secondary" icon={Crosshair} data-testid="jump-to-failure" className="ml-auto" onClick={onJumpToFailure}>
                Jump to failure
              </Button>
            ) : null}
          </div>
          <ul className="min-w-0 space-y-0.5">
            {shownErrors.map((entry) => (
              <li key={entry.key} data-testid={entry.key === "run" ? "run-error" : "run-error-entry"} className="min-w-0 text-xs">
                <button type="button" disabled={entry.sessionId === null} onClick={() => onJump(entry)} className="min-w-0 max-w-full text-left hover:underline disabled:no-underline">
                  <span className="font-medium text-ink">{entry.title}</span> <span className="text-muted [overflow-wrap:anywhere]">— {entry.message.length > 400 ? `${entry.message.slice(0, 400)}…` : entry.message}</span>
                </button>
              </li>
            ))}
          </ul>
          {errors.length > 2 ? (
            <button type="button" onClick={() => setShowErrors(!showErrors)} className="self-start text-xs text-accent hover:underline">
              {showErrors ? "Show fewer" : `Show all ${errors.length}`}
            </button>
          ) : null}
        </div>
      ) : null}
    </header>
  );
}
