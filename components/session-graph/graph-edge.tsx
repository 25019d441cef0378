"use client";
/**
 * The session graph's edge: one look per lineage kind (`lineage-style.ts`: colour, dash and width), the edges on a
 * path to a failure in the failed colour, highlighted edges wider. Carries its source, target and kind as data
 * attributes for tests.
 */
import { BaseEdge, getBezierPath, type Edge, type EdgeProps } from "@xyflow/react";
import { memo } from "react";
import { lineageStyle } from "../ui/lineage-style";
import type { ProjectedEdge } from "./to-flow-graph";

/** Data of a drawn edge. */
export interface LineageEdgeData extends Record<string, unknown> {
  kind: ProjectedEdge["kind"];
  onFailurePath: boolean;
  highlighted: boolean;
}

export type LineageFlowEdge = Edge<LineageEdgeData, "lineage">;

function LineageEdgeView({ id, source, target, sourceX, sourceY, targetX, targetY, sourcePosition, targetPosition, data }: EdgeProps<LineageFlowEdge>) {
  const [path] = getBezierPath({ sourceX, sourceY, targetX, targetY, sourcePosition, targetPosition });
  const kind = data?.kind ?? "loop";
  const look = kind === "pending" || kind === "failure" ? null : lineageStyle(kind);
  const failed = data?.onFailurePath === true || kind === "failure";
  const stroke = failed ? "var(--rath-status-failed)" : (look?.stroke ?? "var(--rath-status-queued)");
  const dash = kind === "pending" ? "4 4" : look?.dash;
  const width = (look?.width ?? 1.5) + (data?.highlighted === true ? 1.5 : 0) + (failed ? 0.5 : 0);
  return (
    <g data-testid="graph-edge" data-source={source} data-target={target} data-kind={kind} data-failure-path={failed ? "true" : "false"}>
      <BaseEdge id={id} path={path} style={{ stroke, strokeWidth: width, strokeDasharray: dash }} />
    </g>
  );
}

/** The edge types (stable). */
export const GRAPH_EDGE_TYPES = { lineage: memo(LineageEdgeView) };
