"use client";
/**
 * Resizable side panels that remember their size (VS Code style). `usePanelSize(key, limits)` keeps a size in
 * localStorage; `<ResizeHandle>` is the draggable, keyboard-operable separator between a panel and the main
 * area (arrows move 16 px, Shift+arrows 64 px, Home/End jump to the limits, double-click restores).
 */
import { useCallback, useEffect, useRef, useState } from "react";
import { clampPanelSize, panelSizeAfterKey, parseStoredPanelSize, type PanelLimits } from "./panel-size";

/** A panel size persisted under `rath-panel:<key>`. */
export function usePanelSize(key: string, limits: PanelLimits): [number, (size: number) => void] {
  const storageKey = `rath-panel:${key}`;
  const [size, setSize] = useState(limits.initial);
  const limitsRef = useRef(limits);
  limitsRef.current = limits;

  useEffect(() => {
    setSize(parseStoredPanelSize(window.localStorage.getItem(storageKey), limitsRef.current));
  }, [storageKey]);

  const update = useCallback(
    (next: number) => {
      const clamped = clampPanelSize(next, limitsRef.current);
      setSize(clamped);
      try {
        window.localStorage.setItem(storageKey, String(clamped));
      } catch {
        // Storage unavailable: the size still applies for this page.
      }
    },
    [storageKey],
  );
  return [size, update];
}

/** Props: the panel's size and setter, its limits, which side of the handle the panel is on, and a label. */
export interface ResizeHandleProps {
  size: number;
  onResize: (size: number) => void;
  limits: PanelLimits;
  /** Where the panel is relative to the handle: a left panel grows when dragged right, a right panel when dragged left. */
  panelSide: "left" | "right" | "top" | "bottom";
  label: string;
  controls?: string;
}

/** The separator between a panel and the rest. */
export function ResizeHandle({ size, onResize, limits, panelSide, label, controls }: ResizeHandleProps) {
  const vertical = panelSide === "left" || panelSide === "right";
  const grow: 1 | -1 = panelSide === "left" || panelSide === "top" ? 1 : -1;
  const start = useRef<{ pointer: number; size: number } | null>(null);

  return (
    // A focusable separator is the WAI-ARIA window-splitter widget (arrow keys resize); jsx-a11y counts every
    // separator as static.
    // eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions
    <div
      role="separator"
      // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- see above
      tabIndex={0}
      aria-label={label}
      aria-controls={controls}
      aria-orientation={vertical ? "vertical" : "horizontal"}
      aria-valuenow={size}
      aria-valuemin={limits.min}
      aria-valuemax={limits.max}
      onPointerDown={(event) => {
        event.currentTarget.setPointerCapture(event.pointerId);
        start.current = { pointer: vertical ? event.clientX : event.clientY, size };
      }}
      onPointerMove={(event) => {
        if (start.current === null) return;
        const delta = (vertical ? event.clientX : event.clientY) - start.current.pointer;
        onResize(start.current.size + delta * grow);
      }}
      onPointerUp={() => {
        start.current = null;
      }}
      onDoubleClick={() => onResize(limits.initial)}
      onKeyDown={(event) => {
        const next = panelSizeAfterKey(size, event.key, grow, limits, event.shiftKey);
        if (next === undefined) return;
        event.preventDefault();
        onResize(next);
      }}
      className={`group relative z-10 shrink-0 touch-none bg-line transition-colors hover:bg-accent focus-visible:bg-accent ${
        vertical ? "w-px cursor-col-resize" : "h-px cursor-row-resize"
      }`}
    >
      <span aria-hidden="true" className={`absolute ${vertical ? "inset-y-0 -left-1.5 -right-1.5" : "inset-x-0 -top-1.5 -bottom-1.5"}`} />
    </div>
  );
}
