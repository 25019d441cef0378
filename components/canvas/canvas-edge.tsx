"use client";
/**
 * The wire between two ports: a bezier curve whose look says what flows (session: solid; tool and memory
 * attachments: dashed in their port colour), a selector's candidate index or `done` as a label, and problems
 * or diff marks in the state colours (with a label, never colour alone).
 *
 * Keyboard: React Flow draws every edge before the nodes, so its focusable edges would come first in the Tab
 * order. Our edges are not focusable in React Flow (flow-projection.ts); each one has a small focus target at
 * its middle instead, drawn in the viewport portal, which comes after the nodes: Tab walks the nodes, then
 * the wires. Enter or Space selects the wire (Delete then removes it), Escape unselects it. The targets are drawn
 * only while focus is inside the canvas (WireFocusContext, set by canvas-flow.tsx): Tab reaches the nodes first
 * anyway, and one portalled button per wire in view slowed the first render of a big workflow (bench/README.md).
 */
import { BaseEdge, EdgeLabelRenderer, ViewportPortal, getBezierPath, useStore, useStoreApi, type EdgeProps, type EdgeTypes } from "@xyflow/react";
import { TriangleAlert } from "lucide-react";
import { createContext, memo, useContext } from "react";
import { PORT_COLORS } from "./canvas-nodes";
import type { CanvasFlowEdge } from "./flow-projection";

const DIFF_STROKE = { added: "var(--rath-status-succeeded)", removed: "var(--rath-status-failed)", changed: "var(--rath-status-waiting)" } as const;

/** Whether focus is inside the canvas, so the wires' focus targets are drawn (canvas-flow.tsx provides it). */
export const WireFocusContext = createContext(false);

/** The id of React Flow's own description of what the keys do on an edge. */
const EDGE_DESCRIPTION_PREFIX = "react-flow__edge-desc";

/** The keyboard's way to a wire: a focus target at its middle, after every node in the Tab order. */
function EdgeFocusTarget({ id, x, y, label, selected }: { id: string; x: number; y: number; label: string; selected: boolean }) {
  const flowStore = useStoreApi();
  const rfId = useStore((state) => state.rfId);
  return (
    <ViewportPortal>
      <button
        type="button"
        className="rath-edge-focus nodrag nopan"
        style={{ transform: `translate(-50%, -50%) translate(${x}px, ${y}px)` }}
        aria-label={label}
        aria-pressed={selected}
        aria-describedby={`${EDGE_DESCRIPTION_PREFIX}-${rfId}`}
        data-testid="edge-focus"
        data-edge-id={id}
        onClick={() => flowStore.getState().addSelectedEdges([id])}
        onKeyDown={(event) => {
          if (event.key !== "Escape" || !selected) return;
          event.stopPropagation();
          const edge = flowStore.getState().edgeLookup.get(id);
          if (edge !== undefined) flowStore.getState().unselectNodesAndEdges({ edges: [edge] });
        }}
      />
    </ViewportPortal>
  );
}

/**
 * A wire's stroke: 1.75 canvas px (2.5 selected), and never under one screen pixel however far out (`--rath-zoom`,
 * zoom-variable.tsx): at 30 % a 1.75 px wire is half a pixel on screen, too faint to follow.
 */
function wireWidth(selected: boolean): string {
  return `max(${selected ? 2.5 : 1.75}px, calc(1px / var(--rath-zoom, 1)))`;
}

const WorkflowEdge = memo(function WorkflowEdge(props: EdgeProps<CanvasFlowEdge>) {
  const { id, sourceX, sourceY, targetX, targetY, sourcePosition, targetPosition, selected, data, markerEnd } = props;
  const [path, labelX, labelY] = getBezierPath({ sourceX, sourceY, targetX, targetY, sourcePosition, targetPosition });
  const portType = data?.portType ?? "session";
  const problems = data?.problems ?? [];
  const diff = data?.diff;
  const stroke = diff !== undefined ? DIFF_STROKE[diff] : problems.length > 0 ? "var(--rath-status-failed)" : selected ? "var(--rath-accent)" : portType === "session" ? "var(--rath-node-line)" : PORT_COLORS[portType];
  const label = diff !== undefined ? diff : (data?.tag ?? null);
  const focusTargets = useContext(WireFocusContext);
  return (
    <>
      <BaseEdge
        id={id}
        path={path}
        {...(markerEnd !== undefined ? { markerEnd } : {})}
        style={{ stroke, strokeWidth: wireWidth(selected === true), strokeDasharray: portType === "session" && diff !== "removed" ? undefined : "5 4" }}
      />
      {focusTargets ? <EdgeFocusTarget id={id} x={labelX} y={labelY} label={data?.name ?? id} selected={selected === true} /> : null}
      {label !== null || problems.length > 0 ? (
        <EdgeLabelRenderer>
          <div
            className="nodrag nopan pointer-events-auto absolute flex items-center gap-1 rounded-full border bg-surface px-1.5 py-px text-[10px] font-medium"
            style={{ transform: `translate(-50%, -50%) translate(${labelX}px, ${labelY}px)`, borderColor: stroke, color: problems.length > 0 || diff !== undefined ? stroke : "var(--rath-muted)" }}
            data-testid="edge-label"
            data-edge-id={id}
            data-problems={problems.length}
            title={problems.join("\n") || undefined}
          >
            {problems.length > 0 ? <TriangleAlert className="size-3" aria-label={`${problems.length} problem(s)`} /> : null}
            {label}
          </div>
        </EdgeLabelRenderer>
      ) : null}
    </>
  );
});

/** The edge components by type (stable object). */
export const CANVAS_EDGE_TYPES = { workflow: WorkflowEdge } as unknown as EdgeTypes;
