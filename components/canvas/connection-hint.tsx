"use client";
/**
 * While a wire is dragged over a port it may not join, says why, next to the pointer (the reason comes from
 * runtime/workflow-spec's `checkConnection`, the same rule server validation applies).
 */
import { useConnection, ViewportPortal } from "@xyflow/react";
import { Ban } from "lucide-react";
import { useCanvasStore } from "./canvas-store-context";
import { verdictFor } from "./connection-rules-client";

/** The hint, rendered inside <ReactFlow>. */
export function ConnectionHint() {
  const connection = useConnection();
  const document = useCanvasStore((state) => state.document);
  if (!connection.inProgress || connection.toHandle === null || connection.isValid !== false) return null;
  const from = connection.fromHandle;
  const to = connection.toHandle;
  const [source, target] = from.type === "source" ? [from, to] : [to, from];
  const verdict = verdictFor(
    { source: source.nodeId, sourceHandle: source.id ?? null, target: target.nodeId, targetHandle: target.id ?? null },
    document.nodes,
    document.edges,
  );
  const reason = verdict.ok ? (source.type === target.type ? "an output can only be wired to an input" : null) : verdict.reason;
  if (reason === null) return null;
  return (
    <ViewportPortal>
      <div
        role="status"
        data-testid="connection-hint"
        className="pointer-events-none absolute z-50 flex max-w-[260px] items-start gap-1.5 rounded-md border border-status-failed bg-surface px-2 py-1.5 text-xs text-ink shadow-lg"
        style={{ transform: `translate(${connection.to.x + 14}px, ${connection.to.y + 14}px)` }}
      >
        <Ban className="mt-px size-3.5 shrink-0 text-status-failed" aria-hidden="true" />
        <span>{reason}</span>
      </div>
    </ViewportPortal>
  );
}
