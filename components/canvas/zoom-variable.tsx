"use client";
/**
 * Keeps the canvas's `--rath-zoom` CSS variable at React Flow's zoom, written straight to the canvas element on every
 * zoom change (no React render): node names size themselves against it in CSS (canvas.css `.rath-node-title-*`),
 * so they read at the same size on screen across a range of zooms. Renders nothing; must be inside <ReactFlow>.
 */
import { useStoreApi } from "@xyflow/react";
import { useEffect } from "react";

/** Writes `--rath-zoom` on the React Flow element while mounted. */
export function ZoomVariable(): null {
  const flowStore = useStoreApi();
  useEffect(() => {
    let written = Number.NaN;
    const write = () => {
      const { domNode, transform } = flowStore.getState();
      const zoom = transform[2];
      if (domNode === null || zoom === written) return;
      written = zoom;
      domNode.style.setProperty("--rath-zoom", String(zoom));
    };
    write();
    return flowStore.subscribe(write);
  }, [flowStore]);
  return null;
}
