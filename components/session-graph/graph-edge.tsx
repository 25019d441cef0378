"use client";
/**
 * The session graph's edge: one look per lineage kind (`lineage-style.ts`: colour, dash and width), the edges on a
 * path to a failure in the failed colour, highlighted edges wider. An edge out of a wide fan-out (`bundled`) runs
 * along its source's trunk: a step path turning close to the source, so all its siblings share one line and branch
 * off to their targets. Carries its source, target and kind as data attributes for tests.
 */
import { BaseEdge, getBezierPath, getSmoothStepPath, Position, type Edge, type EdgeProps } from "@xyflow/react";
import { memo } from "react";
import { lineageStyle } from "../ui/lineage-style";
import type { ProjectedEdge } from "./to-flow-graph";

/** Data of a drawn edge. */
export interface LineageEdgeData extends Record<string, unknown> {
  kind: ProjectedEdge["kind"];
  onFailurePath: boolean;
  /** Leaves along the source's shared trunk (a wide fan-out). */
  bundled?: boolean;
  highlighted: boolean;
}

/** How far from its source a bundled edge's trunk runs (px in graph units; the layer gap is 56). */
const TRUNK_OFFSET = 16;

export type LineageFlowEdge = Edge<LineageEdgeData, "lineage">;

function LineageEdgeView({ id, source, target, sourceX, sourceY, targetX, targetY, sourcePosition, targetPosition, data }: EdgeProps<LineageFlowEdge>) {
  const bundled = data?.bundled === true;
  const down = sourcePosition === Position.Bottom;
  const [path] = bundled
    ? getSmoothStepPath({ sourceX, sourceY, targetX, targetY, sourcePosition, targetPosition, borderRadius: 6, offset: TRUNK_OFFSET, ...(down ? { centerY: sourceY + TRUNK_OFFSET } : { centerX: sourceX + TRUNK_OFFSET }) })
    : getBezierPath({ sourceX, sourceY, targetX, targetY, sourcePosition, targetPosition });
  const kind = data?.kind ?? "loop";
  const look = kind === "pending" || kind === "failure" ? null : lineageStyle(kind);
  const failed = data?.onFailurePath === true || kind === "failure";
  const stroke = failed ? "var(--rath-status-failed)" : (look?.stroke ?? "var(--rath-status-queued)");
  const dash = kind === "pending" ? "4 4" : look?.dash;
  const width = (look?.width ?? 1.5) + (data?.highlighted === true ? 1.5 : 0) + (failed ? 0.5 : 0);
  return (
    <g data-testid="graph-edge" data-source={source} data-target={target} data-kind={kind} data-failure-path={failed ? "true" : "false"} data-bundled={bundled ? "true" : undefined}>
      <BaseEdge id={id} path={path} style={{ stroke, strokeWidth: width, strokeDasharray: dash }} />
    </g>
  );
}

/** The edge types (stable). */
export const GRAPH_EDGE_TYPES = { lineage: memo(LineageEdgeView) };
