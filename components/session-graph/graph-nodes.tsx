"use client";
/**
 * The session graph's node components (memoised; sizes fixed by `NODE_SIZES`): a session (producer label and node
 * id, status, lineage kind, chunk count, tokens), a collapsed chain (how many sessions, expand), a running /
 * waiting / queued step, and the step the run failed at. State shows as icon + label, never colour alone.
 */
import { Handle, Position, type Node, type NodeProps } from "@xyflow/react";
import { ChevronsRight, GitFork, Layers, MessageSquare, TriangleAlert } from "lucide-react";
import { createContext, memo, useContext } from "react";
import { formatTokens } from "../ui/format";
import { lineageEdgeKind, lineageStyle } from "../ui/lineage-style";
import { StatusBadge } from "../ui/status-badge";
import type { ChainNodeData, FailureNodeData, PendingNodeData, SessionNodeData } from "./to-flow-graph";

/** What every drawn node also gets: labels of canvas nodes, and highlight flags. */
export interface NodeViewExtras {
  label: string | null;
  selected: boolean;
  highlighted: boolean;
  /** Displayed session status (succeeded / failed / crashed). */
  status?: string;
}

export type SessionFlowNode = Node<SessionNodeData & NodeViewExtras & Record<string, unknown>, "session">;
export type ChainFlowNode = Node<ChainNodeData & NodeViewExtras & Record<string, unknown>, "chain">;
export type PendingFlowNode = Node<PendingNodeData & NodeViewExtras & Record<string, unknown>, "pending">;
export type FailureFlowNode = Node<FailureNodeData & NodeViewExtras & Record<string, unknown>, "failure">;
/** Every node type the graph draws. */
export type GraphFlowNode = SessionFlowNode | ChainFlowNode | PendingFlowNode | FailureFlowNode;

const HANDLE = "!size-1 !min-w-0 !border-0 !bg-transparent";

function frame(extras: NodeViewExtras, failurePath: boolean, failed: boolean): string {
  const ring = extras.selected ? "ring-2 ring-accent" : extras.highlighted ? "ring-2 ring-accent/50" : "";
  const border = failed ? "border-status-failed" : failurePath ? "border-status-failed/60 border-dashed" : "border-line-strong";
  return `flex h-full w-full min-w-0 flex-col justify-center gap-1 rounded-md border bg-surface px-2.5 text-left shadow-sm ${border} ${ring}`;
}

/** Which way the graph flows (a presented graph may flow down): where edges enter and leave the nodes. */
export const GraphFlowDirection = createContext<"RIGHT" | "DOWN">("RIGHT");

function Handles() {
  const down = useContext(GraphFlowDirection) === "DOWN";
  return (
    <>
      <Handle type="target" position={down ? Position.Top : Position.Left} isConnectable={false} className={HANDLE} />
      <Handle type="source" position={down ? Position.Bottom : Position.Right} isConnectable={false} className={HANDLE} />
    </>
  );
}

function SessionNodeView({ data }: NodeProps<SessionFlowNode>) {
  const session = data.session;
  const kind = lineageStyle(lineageEdgeKind(session.lineage.lineage_kind));
  const KindIcon = kind.icon;
  const tokens = session.ownUsage?.total_tokens ?? 0;
  const status = data.status ?? (data.failed ? "failed" : "succeeded");
  return (
    <div
      data-testid="graph-node"
      data-session-id={session.id}
      data-node-id={session.nodeId ?? ""}
      data-lineage-kind={session.lineage.lineage_kind}
      data-status={status}
      data-failure-path={data.onFailurePath ? "true" : "false"}
      data-selected={data.selected ? "true" : "false"}
      data-highlighted={data.highlighted ? "true" : "false"}
      className={frame(data, data.onFailurePath, data.failed)}
    >
      <Handles />
      <div className="flex min-w-0 items-center gap-1.5">
        <span className="min-w-0 flex-1 truncate text-xs font-medium text-ink" title={`${data.label ?? session.nodeId ?? "session"} (${session.nodeId ?? "no node"})`}>
          {data.label ?? session.nodeId ?? "session"}
          {session.nodeId !== null && data.label !== null && data.label !== session.nodeId ? <span className="ml-1 font-mono font-normal text-faint">{session.nodeId}</span> : null}
        </span>
        <StatusBadge status={status} compact testId="graph-node-status" />
      </div>
      <div className="flex min-w-0 items-center gap-2 text-[11px] text-muted tabular">
        <span className="inline-flex min-w-0 items-center gap-1 truncate" title={kind.description}>
          <KindIcon className="size-3 shrink-0" aria-hidden="true" style={{ color: kind.stroke }} />
          {kind.label}
        </span>
        <span className="inline-flex items-center gap-0.5" title={`${session.chunkCount} chunks`} data-testid="graph-node-chunks" data-count={session.chunkCount}>
          <MessageSquare className="size-3" aria-hidden="true" />
          {session.chunkCount}
        </span>
        {tokens > 0 ? <span title="tokens of its own chunks">{formatTokens(tokens)} tok</span> : null}
        {session.toolErrors !== null ? (
          <span className="ml-auto inline-flex items-center gap-0.5 text-status-failed" title={`${session.toolErrors.count} failed tool call(s)`}>
            <TriangleAlert className="size-3" aria-hidden="true" />
            {session.toolErrors.count}
          </span>
        ) : null}
      </div>
    </div>
  );
}

function ChainNodeView({ data }: NodeProps<ChainFlowNode>) {
  const first = data.sessions[0];
  return (
    <div
      data-testid="graph-chain"
      data-chain-id={data.chainId}
      data-count={data.sessions.length}
      data-forks={data.forks}
      data-failure-path={data.onFailurePath ? "true" : "false"}
      data-highlighted={data.highlighted ? "true" : "false"}
      className={`${frame(data, data.onFailurePath, data.failed)} bg-raised`}
    >
      <Handles />
      <div className="flex min-w-0 items-center gap-1.5 text-xs font-medium text-ink">
        <Layers className="size-3.5 shrink-0 text-muted" aria-hidden="true" />
        <span className="min-w-0 flex-1 truncate" title={`${data.sessions.length} sessions in a chain${data.forks > 0 ? `, with ${data.forks} fork/merge` : ""}`}>
          {data.sessions.length} sessions in a chain{first?.nodeId ? ` from ${data.label ?? first.nodeId}` : ""}
        </span>
        <ChevronsRight className="size-3.5 shrink-0 text-muted" aria-hidden="true" />
      </div>
      <div className="flex min-w-0 items-center gap-2 overflow-hidden text-[11px] whitespace-nowrap text-muted tabular">
        <span className="truncate">{formatTokens(data.ownTokens)} tok</span>
        {data.forks > 0 ? (
          <span className="inline-flex shrink-0 items-center gap-0.5" title={`${data.forks} closed fork/merge inside the chain`}>
            <GitFork className="size-3" aria-hidden="true" />
            {data.forks}
          </span>
        ) : null}
        {data.toolErrors > 0 ? (
          <span className="inline-flex shrink-0 items-center gap-0.5 text-status-failed" title={`${data.toolErrors} failed tool call(s)`}>
            <TriangleAlert className="size-3" aria-hidden="true" />
            {data.toolErrors}
          </span>
        ) : null}
        <span className="ml-auto shrink-0 text-accent">expand</span>
      </div>
    </div>
  );
}

function PendingNodeView({ data }: NodeProps<PendingFlowNode>) {
  return (
    <div data-testid="graph-pending" data-node-id={data.nodeId} data-status={data.status} className={`${frame(data, false, false)} border-dashed bg-raised`}>
      <Handles />
      <div className="flex min-w-0 items-center gap-1.5 text-xs">
        <StatusBadge status={data.status} compact />
        <span className="min-w-0 flex-1 truncate font-medium text-ink">{data.label ?? data.nodeId}</span>
        <span className="text-[11px] text-muted">{data.status}</span>
      </div>
    </div>
  );
}

function FailureNodeView({ data }: NodeProps<FailureFlowNode>) {
  return (
    <div data-testid="graph-failure" data-node-id={data.nodeId ?? ""} className={`${frame(data, true, true)} bg-surface`}>
      <Handles />
      <div className="flex min-w-0 items-center gap-1.5 text-xs font-medium text-status-failed">
        <TriangleAlert className="size-3.5 shrink-0" aria-hidden="true" />
        <span className="min-w-0 flex-1 truncate">
          {data.code}
          {data.nodeId === null ? "" : ` at ${data.label ?? data.nodeId}`}
        </span>
      </div>
      <p className="truncate text-[11px] text-muted" title={data.message}>
        {data.message}
      </p>
    </div>
  );
}

/** The node types (a stable object, as xyflow asks). */
export const GRAPH_NODE_TYPES = {
  session: memo(SessionNodeView),
  chain: memo(ChainNodeView),
  pending: memo(PendingNodeView),
  failure: memo(FailureNodeView),
};
