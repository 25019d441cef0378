"use client";
/**
 * The session graph's node components (memoised; sizes fixed by `NODE_SIZES`): a session (producer label and node
 * id, status, lineage kind, chunk count, tokens), a collapsed chain (how many sessions, expand), a running /
 * waiting / queued step, and the step the run failed at. State shows as icon + label, never colour alone.
 * Below FAR_ZOOM (opening-view.ts) each node draws its far look: status icon and name in FAR_NAME_PX type (about
 * 11 px on screen at the least opening zoom), the rest in smaller type or left out; each node subscribes to its
 * look only, so it redraws when the zoom crosses FAR_ZOOM, not on every zoom step.
 */
import { Handle, Position, useStore, type Node, type NodeProps, type ReactFlowState } from "@xyflow/react";
import { ChevronsRight, GitFork, Layers, MessageSquare, TriangleAlert } from "lucide-react";
import { createContext, memo, useContext } from "react";
import { formatTokens } from "../ui/format";
import { lineageEdgeKind, lineageStyle } from "../ui/lineage-style";
import { StatusBadge } from "../ui/status-badge";
import { FAR_NAME_PX, FAR_ZOOM } from "./opening-view";
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

function frame(extras: NodeViewExtras, failurePath: boolean, failed: boolean, far = false): string {
  const ring = extras.selected ? (far ? "ring-4 ring-accent" : "ring-2 ring-accent") : extras.highlighted ? (far ? "ring-4 ring-accent/50" : "ring-2 ring-accent/50") : "";
  const border = failed ? "border-status-failed" : failurePath ? "border-status-failed/60 border-dashed" : "border-line-strong";
  return `flex h-full w-full min-w-0 flex-col justify-center rounded-md bg-surface px-2.5 text-left shadow-sm ${far ? "gap-0.5 border-2" : "gap-1 border"} ${border} ${ring}`;
}

const isFar = (state: ReactFlowState): boolean => state.transform[2] < FAR_ZOOM;
/** Whether the graph is zoomed out past FAR_ZOOM (nodes then draw their far look). */
function useFarLook(): boolean {
  return useStore(isFar);
}

/** A far look's name: FAR_NAME_PX type, one line, the whole text in its title. */
function FarName({ text, title, className = "text-ink" }: { text: string; title?: string; className?: string }) {
  return (
    <span data-node-title="" className={`min-w-0 flex-1 truncate leading-tight font-semibold ${className}`} style={{ fontSize: FAR_NAME_PX }} title={title ?? text}>
      {text}
    </span>
  );
}

/** How many of a node's tool calls failed, in the failure colour (nothing when none did); larger in the far look. */
function FailedToolsBadge({ count, far = false, className = "" }: { count: number; far?: boolean; className?: string }) {
  if (count <= 0) return null;
  return (
    <span className={`inline-flex shrink-0 items-center gap-0.5 text-status-failed ${className}`} title={`${count} failed tool call(s)`}>
      <TriangleAlert className={far ? "size-4" : "size-3"} aria-hidden="true" />
      {count}
    </span>
  );
}

const FAR_DETAIL = "flex min-w-0 items-center gap-3 overflow-hidden whitespace-nowrap text-[15px] leading-none text-muted tabular";

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
  const far = useFarLook();
  const name = data.label ?? session.nodeId ?? "session";
  const attributes = {
    "data-testid": "graph-node",
    "data-session-id": session.id,
    "data-node-id": session.nodeId ?? "",
    "data-lineage-kind": session.lineage.lineage_kind,
    "data-status": status,
    "data-failure-path": data.onFailurePath ? "true" : "false",
    "data-selected": data.selected ? "true" : "false",
    "data-highlighted": data.highlighted ? "true" : "false",
  };
  const chunks = (
    <span className="inline-flex items-center gap-0.5" title={`${session.chunkCount} chunks`} data-testid="graph-node-chunks" data-count={session.chunkCount}>
      <MessageSquare className={far ? "size-4" : "size-3"} aria-hidden="true" />
      {session.chunkCount}
    </span>
  );
  if (far) {
    return (
      <div {...attributes} data-far="true" className={frame(data, data.onFailurePath, data.failed, true)}>
        <Handles />
        <div className="flex min-w-0 items-center gap-1.5">
          <StatusBadge status={status} compact testId="graph-node-status" className="[&_svg]:size-6" />
          <FarName text={name} title={`${name} (${session.nodeId ?? "no node"})`} />
        </div>
        <div className={FAR_DETAIL}>
          <span className="inline-flex items-center gap-1" title={kind.description}>
            <KindIcon className="size-4 shrink-0" aria-hidden="true" style={{ color: kind.stroke }} />
            {kind.label}
          </span>
          {chunks}
          <FailedToolsBadge count={session.toolErrors?.count ?? 0} far className="ml-auto" />
        </div>
      </div>
    );
  }
  return (
    <div {...attributes} className={frame(data, data.onFailurePath, data.failed)}>
      <Handles />
      <div className="flex min-w-0 items-center gap-1.5">
        <span data-node-title="" className="min-w-0 flex-1 truncate text-xs font-medium text-ink" title={`${name} (${session.nodeId ?? "no node"})`}>
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
        {chunks}
        {tokens > 0 ? <span title="tokens of its own chunks">{formatTokens(tokens)} tok</span> : null}
        <FailedToolsBadge count={session.toolErrors?.count ?? 0} className="ml-auto" />
      </div>
    </div>
  );
}

/** A chain's wording: short enough for its node, the whole of it in the tooltip. */
export function chainText(count: number, from: string | null, forks: number): { title: string; from: string | null; tooltip: string } {
  const title = `Chain of ${count} sessions`;
  const tooltip = `${count} sessions in a chain${from === null ? "" : ` from ${from}`}${forks > 0 ? `, with ${forks} fork/merge` : ""}; click to expand`;
  return { title, from: from === null ? null : `from ${from}`, tooltip };
}

function ChainNodeView({ data }: NodeProps<ChainFlowNode>) {
  const first = data.sessions[0];
  const far = useFarLook();
  const from = first?.nodeId ? (data.label ?? first.nodeId) : null;
  const text = chainText(data.sessions.length, from, data.forks);
  const attributes = {
    "data-testid": "graph-chain",
    "data-chain-id": data.chainId,
    "data-count": data.sessions.length,
    "data-forks": data.forks,
    "data-failure-path": data.onFailurePath ? "true" : "false",
    "data-highlighted": data.highlighted ? "true" : "false",
    title: text.tooltip,
  };
  if (far) {
    return (
      <div {...attributes} data-far="true" className={`${frame(data, data.onFailurePath, data.failed, true)} bg-raised`}>
        <Handles />
        <div className="flex min-w-0 items-center gap-1.5">
          <Layers className="size-6 shrink-0 text-muted" aria-hidden="true" />
          <FarName text={`${data.sessions.length} sessions`} title={text.tooltip} />
        </div>
        <div className={FAR_DETAIL}>
          {text.from !== null ? <span className="min-w-0 truncate">{text.from}</span> : null}
          <FailedToolsBadge count={data.toolErrors} far className="ml-auto" />
        </div>
      </div>
    );
  }
  return (
    <div {...attributes} className={`${frame(data, data.onFailurePath, data.failed)} bg-raised`}>
      <Handles />
      <div className="flex min-w-0 items-center gap-1.5 text-xs font-medium text-ink">
        <Layers className="size-3.5 shrink-0 text-muted" aria-hidden="true" />
        <span data-node-title="" data-testid="graph-chain-title" className="min-w-0 flex-1 truncate">
          {text.title}
        </span>
        <ChevronsRight className="size-3.5 shrink-0 text-accent" aria-hidden="true" />
      </div>
      <div className="flex min-w-0 items-center gap-2 overflow-hidden text-[11px] whitespace-nowrap text-muted tabular">
        {text.from !== null ? (
          <span data-testid="graph-chain-from" className="min-w-0 truncate">
            {text.from}
          </span>
        ) : null}
        <span className="ml-auto shrink-0">{formatTokens(data.ownTokens)} tok</span>
        {data.forks > 0 ? (
          <span className="inline-flex shrink-0 items-center gap-0.5" title={`${data.forks} closed fork/merge inside the chain`}>
            <GitFork className="size-3" aria-hidden="true" />
            {data.forks}
          </span>
        ) : null}
        <FailedToolsBadge count={data.toolErrors} />
      </div>
    </div>
  );
}

function PendingNodeView({ data }: NodeProps<PendingFlowNode>) {
  const far = useFarLook();
  const name = data.label ?? data.nodeId;
  return (
    <div data-testid="graph-pending" data-node-id={data.nodeId} data-status={data.status} data-far={far ? "true" : undefined} className={`${frame(data, false, false, far)} border-dashed bg-raised`}>
      <Handles />
      <div className="flex min-w-0 items-center gap-1.5 text-xs">
        <StatusBadge status={data.status} compact className={far ? "[&_svg]:size-6" : ""} />
        {far ? (
          <FarName text={name} title={`${name}: ${data.status}`} />
        ) : (
          <>
            <span data-node-title="" className="min-w-0 flex-1 truncate font-medium text-ink">
              {name}
            </span>
            <span className="text-[11px] text-muted">{data.status}</span>
          </>
        )}
      </div>
    </div>
  );
}

function FailureNodeView({ data }: NodeProps<FailureFlowNode>) {
  const far = useFarLook();
  const where = data.nodeId === null ? "" : ` at ${data.label ?? data.nodeId}`;
  return (
    <div data-testid="graph-failure" data-node-id={data.nodeId ?? ""} data-far={far ? "true" : undefined} className={`${frame(data, true, true, far)} bg-surface`} title={`${data.code}${where}: ${data.message}`}>
      <Handles />
      <div className="flex min-w-0 items-center gap-1.5 text-xs font-medium text-status-failed">
        <TriangleAlert className={`${far ? "size-6" : "size-3.5"} shrink-0`} aria-hidden="true" />
        {far ? (
          <FarName text={data.code} className="text-status-failed" />
        ) : (
          <span data-node-title="" className="min-w-0 flex-1 truncate">
            {data.code}
            {where}
          </span>
        )}
      </div>
      <p className={far ? `${FAR_DETAIL} truncate` : "truncate text-[11px] text-muted"}>{far ? where.trim() || data.message : data.message}</p>
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
