"use client";
/**
 * One custom node component per node type (all 11 of NODE_TYPES), each a memo'd wrapper around `NodeCard`: the
 * type's icon and tone, the node's name, its at-a-glance rows, and its typed ports from NODE_PORTS (session
 * ports left/right, tool and memory attachments bottom/top). Problems, run status and diff marks come in
 * `data`; nothing here reads the canvas store. Below FAR_ZOOM a node draws its far look (icon, name and run
 * status; no summary rows or port labels), its name in 32–38 px type on up to two lines so it still reads at the
 * zoom a template opens at (about 11 px on screen at 30 %); from FAR_ZOOM to MID_ZOOM its middle look, the full card
 * with the name grown against the zoom in place of the type line, wrapped on up to two lines (then cut, the whole
 * name in its title). Within a look the name's size follows the zoom in CSS (canvas.css, zoom-variable.tsx); each
 * node subscribes to its look only, so it redraws when the zoom crosses a look's line, not on every zoom step. A
 * node's edge is `--rath-node-line` (3:1 against the canvas), about a pixel wide on screen however far out.
 */
import { Handle, Position, useStore, type NodeProps, type NodeTypes, type ReactFlowState } from "@xyflow/react";
import { TriangleAlert } from "lucide-react";
import { memo, type CSSProperties, type ReactNode } from "react";
import { NODE_PORTS, type PortSpec, type PortType } from "../../runtime/workflow-spec/ports";
import type { NodeType } from "../../runtime/workflow-spec/workflow-spec";
import { statusStyle } from "../ui/status-style";
import { FAR_ZOOM, MID_ZOOM, type CanvasFlowNode } from "./flow-projection";
import { NODE_CATALOG } from "./node-catalog";

/** Port colours by what flows through them (also used by the edges and the legend). */
export const PORT_COLORS: Readonly<Record<PortType, string>> = {
  session: "var(--rath-muted)",
  tool: "var(--rath-status-waiting)",
  memory: "var(--rath-status-crashed)",
};

const DIFF_LOOK = {
  added: { label: "added", ring: "var(--rath-status-succeeded)", dashed: false },
  removed: { label: "removed", ring: "var(--rath-status-failed)", dashed: true },
  changed: { label: "changed", ring: "var(--rath-status-waiting)", dashed: false },
} as const;

function sideOf(port: PortSpec, direction: "in" | "out"): Position {
  if (port.type === "session") return direction === "in" ? Position.Left : Position.Right;
  return direction === "in" ? Position.Bottom : Position.Top;
}

type Look = "far" | "mid" | "near";

const lookOf = (state: ReactFlowState): Look => (state.transform[2] < FAR_ZOOM ? "far" : state.transform[2] < MID_ZOOM ? "mid" : "near");

function PortHandles({ type, nodeId, labels }: { type: NodeType; nodeId: string; labels: boolean }) {
  const ports = NODE_PORTS[type];
  const groups = new Map<Position, { port: PortSpec; direction: "in" | "out" }[]>();
  for (const port of ports.inputs) groups.set(sideOf(port, "in"), [...(groups.get(sideOf(port, "in")) ?? []), { port, direction: "in" }]);
  for (const port of ports.outputs) groups.set(sideOf(port, "out"), [...(groups.get(sideOf(port, "out")) ?? []), { port, direction: "out" }]);
  const handles: ReactNode[] = [];
  for (const [position, list] of groups) {
    list.forEach(({ port, direction }, index) => {
      const offset = `${((index + 1) / (list.length + 1)) * 100}%`;
      const horizontal = position === Position.Top || position === Position.Bottom;
      const style: CSSProperties = {
        ...(horizontal ? { left: offset } : { top: list.length === 1 ? 22 : offset }),
        background: port.type === "session" ? "var(--rath-surface)" : PORT_COLORS[port.type],
        borderColor: PORT_COLORS[port.type],
      };
      const showLabel = labels && (list.length > 1 || port.type !== "session");
      handles.push(
        <Handle
          key={`${direction}-${port.name}`}
          id={port.name}
          type={direction === "in" ? "target" : "source"}
          position={position}
          style={style}
          className="rath-port"
          data-port-type={port.type}
          data-testid={`port-${nodeId}-${direction}-${port.name}`}
          title={`${direction === "in" ? "input" : "output"} ${port.name} (${port.type}): ${port.description}`}
        >
          {showLabel ? (
            <span className={`rath-port-label rath-port-label-${position}`} aria-hidden="true">
              {port.name}
            </span>
          ) : null}
        </Handle>,
      );
    });
  }
  return <>{handles}</>;
}

function NodeCard({ id, data, selected, type }: NodeProps<CanvasFlowNode>) {
  const info = NODE_CATALOG[type];
  const Icon = info.icon;
  const status = data.status === undefined ? null : statusStyle(data.status);
  const StatusIcon = status?.icon;
  const diff = data.diff === undefined ? null : DIFF_LOOK[data.diff];
  const hasProblems = data.problems.length > 0;
  const ring = diff?.ring ?? status?.color ?? (hasProblems ? "var(--rath-status-failed)" : selected ? "var(--rath-accent)" : undefined);
  // Without a ring, the edge is thickened to about a screen pixel when zoomed out (canvas.css `.rath-node-edge`).
  const edge = ring === undefined ? "rath-node-edge" : "";
  const look = useStore(lookOf);
  // What the tests and the run overlay read, the same in both looks.
  const testAttributes = {
    "data-testid": "canvas-node",
    "data-node-id": id,
    "data-node-type": type,
    "data-problems": data.problems.length,
    "data-status": data.status ?? "",
    "data-diff": data.diff ?? "",
  };
  if (look === "far") {
    return (
      <div
        {...testAttributes}
        data-far="true"
        className={`relative flex w-[232px] items-center rounded-xl border bg-surface px-2.5 py-2.5 ${edge}`}
        style={{ borderColor: ring ?? "var(--rath-node-line)", boxShadow: ring !== undefined ? `0 0 0 ${selected ? 3 : 2}px ${ring}` : undefined }}
      >
        {/* Icon and status ride on the corners as badges, so the name has the whole width: at 32 px a word of ten
            letters ("Specialist") fits on its line instead of breaking mid-word. The name comes first. */}
        <span className="rath-node-title-far line-clamp-2 min-w-0 flex-1 font-semibold break-words text-ink" title={data.name} data-node-title="">
          {data.name}
        </span>
        <span className="absolute -top-4 -left-4 grid size-10 place-items-center rounded-full border border-node-line bg-surface">
          <Icon className="size-7" style={{ color: info.tone }} aria-hidden="true" />
        </span>
        {status !== null && StatusIcon !== undefined ? (
          <span className="absolute -top-4 -right-4 grid size-10 place-items-center rounded-full border border-node-line bg-surface">
            <StatusIcon className="size-7" style={{ color: status.color }} aria-label={status.label} />
          </span>
        ) : null}
        <PortHandles type={type} nodeId={id} labels={false} />
      </div>
    );
  }
  return (
    <div
      {...testAttributes}
      className={`group relative w-[232px] rounded-xl border bg-surface text-left shadow-sm transition-shadow ${selected ? "shadow-md" : ""} ${diff?.dashed ? "border-dashed opacity-80" : ""} ${edge}`}
      style={{
        borderColor: ring ?? "var(--rath-node-line)",
        boxShadow: ring !== undefined ? `0 0 0 ${selected ? 2 : 1}px ${ring}` : undefined,
      }}
    >
      <div className="flex items-center gap-2 px-3 pt-2.5 pb-2">
        {look === "mid" ? (
          // The name has the whole width (the icon rides on the corner): at 26 px a ten-letter word fits on a line.
          <div className="rath-node-title-mid line-clamp-2 min-w-0 flex-1 font-semibold break-words text-ink" title={data.name} data-node-title="">
            {data.name}
          </div>
        ) : (
          <>
            <span
              className="grid size-7 shrink-0 place-items-center rounded-lg"
              style={{ color: info.tone, background: `color-mix(in oklab, ${info.tone} 14%, transparent)` }}
              aria-hidden="true"
            >
              <Icon className="size-4" />
            </span>
            <div className="min-w-0 flex-1">
              <div className="truncate text-[13px] leading-[16px] font-semibold text-ink" title={data.name} data-node-title="">
                {data.name}
              </div>
              <div className="truncate text-[11px] leading-[14px] text-faint">
                {info.title} · <span className="font-mono">{id}</span>
              </div>
            </div>
          </>
        )}
        {hasProblems ? (
          <span
            className="inline-flex items-center gap-0.5 rounded-full bg-[color-mix(in_oklab,var(--rath-status-failed)_12%,transparent)] px-1.5 py-0.5 text-[11px] font-medium text-status-failed"
            title={data.problems.join("\n")}
            data-testid="node-problem-badge"
          >
            <TriangleAlert className="size-3" aria-hidden="true" />
            <span className="tabular">{data.problems.length}</span>
            <span className="sr-only"> problem{data.problems.length === 1 ? "" : "s"}</span>
          </span>
        ) : null}
      </div>
      <dl className="space-y-0.5 border-t border-line px-3 py-2 text-[11px] leading-snug">
        {data.summary.map((row) => (
          <div key={row.label} className="flex min-w-0 gap-2">
            <dt className="w-14 shrink-0 text-faint">{row.label}</dt>
            <dd className={`min-w-0 flex-1 truncate ${row.muted ? "text-faint italic" : "text-muted"}`} title={row.value}>
              {row.value}
            </dd>
          </div>
        ))}
      </dl>
      {status !== null && StatusIcon !== undefined ? (
        <div
          className="flex items-center gap-1.5 rounded-b-xl border-t border-line px-3 py-1.5 text-[11px] font-medium"
          style={{ color: status.color, background: `color-mix(in oklab, ${status.color} 8%, transparent)` }}
          data-testid="node-run-status"
        >
          <StatusIcon className={`size-3.5 shrink-0 ${status.spinning ? "animate-spin" : ""}`} aria-hidden="true" />
          <span>{status.label}</span>
          {data.statusDetail ? (
            <span className="min-w-0 flex-1 truncate font-normal" title={data.statusDetail} data-testid="node-run-error">
              — {data.statusDetail}
            </span>
          ) : null}
        </div>
      ) : null}
      {diff !== null ? (
        <span
          className="absolute -top-2.5 right-3 rounded-full border bg-surface px-1.5 text-[10px] font-semibold tracking-wide uppercase"
          style={{ color: diff.ring, borderColor: diff.ring }}
          data-testid="node-diff-mark"
        >
          {diff.label}
        </span>
      ) : null}
      {look === "mid" ? (
        <span className="absolute -top-5 -left-5 grid size-8 place-items-center rounded-full border border-node-line bg-surface" aria-hidden="true">
          <Icon className="size-5" style={{ color: info.tone }} />
        </span>
      ) : null}
      <PortHandles type={type} nodeId={id} labels />
    </div>
  );
}

const InputNode = memo(function InputNode(props: NodeProps<CanvasFlowNode>) {
  return <NodeCard {...props} />;
});
const AgentNode = memo(function AgentNode(props: NodeProps<CanvasFlowNode>) {
  return <NodeCard {...props} />;
});
const ToolNode = memo(function ToolNode(props: NodeProps<CanvasFlowNode>) {
  return <NodeCard {...props} />;
});
const SelectorNode = memo(function SelectorNode(props: NodeProps<CanvasFlowNode>) {
  return <NodeCard {...props} />;
});
const ForkNode = memo(function ForkNode(props: NodeProps<CanvasFlowNode>) {
  return <NodeCard {...props} />;
});
const MergeNode = memo(function MergeNode(props: NodeProps<CanvasFlowNode>) {
  return <NodeCard {...props} />;
});
const CompressorNode = memo(function CompressorNode(props: NodeProps<CanvasFlowNode>) {
  return <NodeCard {...props} />;
});
const MemoryNode = memo(function MemoryNode(props: NodeProps<CanvasFlowNode>) {
  return <NodeCard {...props} />;
});
const ApprovalNode = memo(function ApprovalNode(props: NodeProps<CanvasFlowNode>) {
  return <NodeCard {...props} />;
});
const SubworkflowNode = memo(function SubworkflowNode(props: NodeProps<CanvasFlowNode>) {
  return <NodeCard {...props} />;
});
const OutputNode = memo(function OutputNode(props: NodeProps<CanvasFlowNode>) {
  return <NodeCard {...props} />;
});

/** The node components by type: a stable object (React Flow re-mounts nodes when it changes). */
export const CANVAS_NODE_TYPES = {
  input: InputNode,
  agent: AgentNode,
  tool: ToolNode,
  selector: SelectorNode,
  fork: ForkNode,
  merge: MergeNode,
  compressor: CompressorNode,
  memory: MemoryNode,
  approval: ApprovalNode,
  subworkflow: SubworkflowNode,
  output: OutputNode,
} satisfies Record<NodeType, unknown> as unknown as NodeTypes;
