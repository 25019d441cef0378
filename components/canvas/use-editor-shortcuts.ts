"use client";
/**
 * The editor's keyboard: undo/redo, save, run, copy/cut/paste (native clipboard events, so pasting works
 * without a permission prompt and across workflows and tabs), duplicate, select all, nudge, auto-layout, fit,
 * the command palette and the help dialog. Keys typed into a field or Monaco are left alone.
 */
import { useEffect, useRef } from "react";
import type { CanvasStore } from "./canvas-store";

/** What the shortcuts trigger. */
export interface EditorCommands {
  save: () => void;
  run: () => void;
  undo: () => void;
  redo: () => void;
  copy: () => string | null;
  cut: () => string | null;
  paste: (text: string) => void;
  duplicate: () => void;
  autoLayout: () => void;
  fitView: () => void;
  openPalette: () => void;
  openHelp: () => void;
}

function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target.closest(".monaco-editor, [cmdk-root], dialog[open]") !== null) return true;
  const tag = target.tagName;
  return tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT";
}

/** Installs the shortcuts on the window while the editor is mounted. */
export function useEditorShortcuts(store: CanvasStore, commands: EditorCommands): void {
  const latest = useRef(commands);
  latest.current = commands;

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      const mod = event.metaKey || event.ctrlKey;
      const key = event.key.toLowerCase();
      const run = latest.current;
      if (mod && key === "k") {
        event.preventDefault();
        run.openPalette();
        return;
      }
      if (mod && key === "s") {
        event.preventDefault();
        run.save();
        return;
      }
      if (isTyping(event.target)) return;
      if (mod && key === "enter") {
        event.preventDefault();
        run.run();
      } else if (mod && key === "z") {
        event.preventDefault();
        if (event.shiftKey) run.redo();
        else run.undo();
      } else if (mod && key === "y") {
        event.preventDefault();
        run.redo();
      } else if (mod && key === "d") {
        event.preventDefault();
        run.duplicate();
      } else if (mod && key === "a") {
        event.preventDefault();
        store.getState().select({ nodes: store.getState().document.nodes.map((node) => node.id), edges: [] });
      } else if (!mod && event.key === "?") {
        event.preventDefault();
        run.openHelp();
      } else if (!mod && event.shiftKey && key === "l") {
        event.preventDefault();
        run.autoLayout();
      } else if (!mod && event.shiftKey && (event.key === "!" || event.code === "Digit1")) {
        event.preventDefault();
        run.fitView();
      } else if (event.key === "Escape") {
        store.getState().select({ nodes: [], edges: [] });
      } else if (!mod && event.key.startsWith("Arrow")) {
        const { selection, document, moveNodes, readOnly } = store.getState();
        if (selection.nodes.length === 0 || readOnly) return;
        event.preventDefault();
        const step = event.shiftKey ? 160 : 16;
        const dx = event.key === "ArrowLeft" ? -step : event.key === "ArrowRight" ? step : 0;
        const dy = event.key === "ArrowUp" ? -step : event.key === "ArrowDown" ? step : 0;
        const moved: Record<string, { x: number; y: number }> = {};
        for (const id of selection.nodes) {
          const position = document.positions[id];
          if (position !== undefined) moved[id] = { x: position.x + dx, y: position.y + dy };
        }
        moveNodes(moved);
      }
    };
    const onCopy = (event: ClipboardEvent) => {
      if (isTyping(event.target) || window.getSelection()?.toString()) return;
      const text = latest.current.copy();
      if (text === null || event.clipboardData === null) return;
      event.preventDefault();
      event.clipboardData.setData("text/plain", text);
    };
    const onCut = (event: ClipboardEvent) => {
      if (isTyping(event.target) || window.getSelection()?.toString()) return;
      const text = latest.current.cut();
      if (text === null || event.clipboardData === null) return;
      event.preventDefault();
      event.clipboardData.setData("text/plain", text);
    };
    const onPaste = (event: ClipboardEvent) => {
      if (isTyping(event.target)) return;
      const text = event.clipboardData?.getData("text/plain") ?? "";
      if (text.trim() === "") return;
      event.preventDefault();
      latest.current.paste(text);
    };
    window.addEventListener("keydown", onKeyDown);
    window.addEventListener("copy", onCopy);
    window.addEventListener("cut", onCut);
    window.addEventListener("paste", onPaste);
    return () => {
      window.removeEventListener("keydown", onKeyDown);
      window.removeEventListener("copy", onCopy);
      window.removeEventListener("cut", onCut);
      window.removeEventListener("paste", onPaste);
    };
  }, [store]);
}
