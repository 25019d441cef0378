"use client";
/**
 * The editor's top bar: where you are (workflow name, revision, unsaved marker), history actions (undo/redo),
 * canvas actions (auto-layout, command palette, shortcuts), file actions (history, export, import) and the two
 * main ones: Run and Save. On a narrow screen the panel toggles appear and the secondary actions fold away.
 */
import {
  ArrowLeft,
  Download,
  History,
  Keyboard,
  LayoutGrid,
  PanelLeft,
  PanelRight,
  Play,
  Redo2,
  Save,
  Search,
  Undo2,
  Upload,
} from "lucide-react";
import Link from "next/link";
import type { ReactNode } from "react";
import { Button, buttonClasses } from "../ui/button";

/** Props: state to show and the handlers. */
export interface EditorToolbarProps {
  workflowName: string;
  revisionLabel: string;
  dirty: boolean;
  readOnly: boolean;
  saving: boolean;
  canUndo: boolean;
  canRedo: boolean;
  onUndo: () => void;
  onRedo: () => void;
  onSave: () => void;
  onRun: () => void;
  onAutoLayout: () => void;
  onPalette: () => void;
  onHelp: () => void;
  onHistory: () => void;
  onExport: () => void;
  onImport: () => void;
  onToggleLeft: () => void;
  onToggleRight: () => void;
  /** Shown instead of the edit actions while a read-only revision or a diff is open. */
  banner?: ReactNode;
}

/** The bar. */
export function EditorToolbar(props: EditorToolbarProps) {
  const { workflowName, revisionLabel, dirty, readOnly, saving, canUndo, canRedo } = props;
  return (
    <div className="flex h-11 shrink-0 items-center gap-1 border-b border-line bg-surface px-2" data-testid="editor-toolbar">
      <Link href="/" className={buttonClasses("ghost", "sm", true)} aria-label="All workflows">
        <ArrowLeft className="size-4" aria-hidden="true" />
      </Link>
      <Button variant="ghost" size="sm" icon={PanelLeft} aria-label="Toggle the node palette" onClick={props.onToggleLeft} className="md:hidden" />
      <div className="flex min-w-0 items-center gap-2 px-1">
        <h1 className="truncate text-sm font-semibold text-ink" data-testid="workflow-name" title={workflowName}>
          {workflowName}
        </h1>
        <span className="hidden shrink-0 rounded-full border border-line px-1.5 py-px text-[11px] text-muted tabular sm:inline" data-testid="revision-label">
          {revisionLabel}
        </span>
        {dirty ? (
          <span className="flex shrink-0 items-center gap-1 text-[11px] text-status-waiting" data-testid="unsaved-marker" role="status">
            <span className="size-1.5 rounded-full bg-status-waiting" aria-hidden="true" />
            <span className="hidden sm:inline">Unsaved</span>
            <span className="sr-only sm:hidden">Unsaved changes</span>
          </span>
        ) : null}
      </div>
      {props.banner ? <div className="flex min-w-0 flex-1 items-center justify-center">{props.banner}</div> : <div className="flex-1" />}
      <div className="flex shrink-0 items-center gap-0.5">
        <Button variant="ghost" size="sm" icon={Undo2} aria-label="Undo" title="Undo (Ctrl+Z)" onClick={props.onUndo} disabled={!canUndo || readOnly} data-testid="undo" />
        <Button variant="ghost" size="sm" icon={Redo2} aria-label="Redo" title="Redo (Ctrl+Shift+Z)" onClick={props.onRedo} disabled={!canRedo || readOnly} data-testid="redo" />
        <span className="mx-1 hidden h-5 w-px bg-line sm:block" aria-hidden="true" />
        <Button variant="ghost" size="sm" icon={LayoutGrid} aria-label="Auto-layout" title="Auto-layout (Shift+L)" onClick={props.onAutoLayout} disabled={readOnly} className="max-sm:hidden" data-testid="auto-layout" />
        <Button variant="ghost" size="sm" icon={Search} aria-label="Command palette" title="Command palette (Ctrl+K)" onClick={props.onPalette} data-testid="open-palette" />
        <Button variant="ghost" size="sm" icon={Keyboard} aria-label="Keyboard shortcuts" title="Keyboard shortcuts (?)" onClick={props.onHelp} className="max-lg:hidden" />
        <Button variant="ghost" size="sm" icon={History} aria-label="Revision history" title="Revision history" onClick={props.onHistory} data-testid="open-history" />
        <Button variant="ghost" size="sm" icon={Download} aria-label="Export spec and layout" title="Export spec + layout (JSON)" onClick={props.onExport} className="max-sm:hidden" data-testid="export" />
        <Button variant="ghost" size="sm" icon={Upload} aria-label="Import spec and layout" title="Import spec + layout (JSON)" onClick={props.onImport} disabled={readOnly} className="max-sm:hidden" data-testid="import" />
        <span className="mx-1 h-5 w-px bg-line" aria-hidden="true" />
        <Button size="sm" icon={Play} onClick={props.onRun} aria-label="Run" data-testid="run-open">
          <span className="hidden sm:inline">Run</span>
        </Button>
        <Button variant="primary" size="sm" icon={Save} onClick={props.onSave} disabled={readOnly || saving} aria-label="Save" data-testid="save">
          <span className="hidden sm:inline">{saving ? "Saving…" : "Save"}</span>
        </Button>
        <Button variant="ghost" size="sm" icon={PanelRight} aria-label="Toggle the properties panel" onClick={props.onToggleRight} className="md:hidden" />
      </div>
    </div>
  );
}
