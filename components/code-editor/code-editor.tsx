"use client";
/**
 * A Monaco editor for one field: prompts (markdown), custom tool code (JavaScript checked with the tool's
 * typings), JSON (parameters schemas validated against the JSON Schema meta-schema when `path` ends with
 * `.schema.json`). Monaco comes from the app bundle (monaco-setup.ts); until it is ready a quiet placeholder
 * with the same height shows, so the panel does not jump.
 */
import Editor from "@monaco-editor/react";
import { useEffect, useState } from "react";
import { useIsDark } from "../shell/use-theme";
import { ensureMonaco, setExtraLib, type MonacoApi } from "./monaco-setup";

/** Props of one editor. */
export interface CodeEditorProps {
  value: string;
  onChange: (value: string) => void;
  language: "markdown" | "plaintext" | "javascript" | "json";
  /** Model path (unique per field): `node/agent-1/instructions.md`. */
  path: string;
  /** Accessible name of the editing area. */
  label: string;
  height?: number;
  readOnly?: boolean;
  /** Typings for JavaScript models (e.g. a tool's `ToolArgs`), declared at `<path>.d.ts`. */
  typings?: string;
  testId?: string;
}

/** One Monaco editor, loaded from the local bundle. */
export function CodeEditor({ value, onChange, language, path, label, height = 160, readOnly = false, typings, testId }: CodeEditorProps) {
  const isDark = useIsDark();
  const [monaco, setMonaco] = useState<MonacoApi | null>(null);
  const [failed, setFailed] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    ensureMonaco().then(
      (loaded) => {
        if (live) setMonaco(loaded);
      },
      (error: unknown) => {
        if (live) setFailed(error instanceof Error ? error.message : String(error));
      },
    );
    return () => {
      live = false;
    };
  }, []);

  useEffect(() => {
    if (monaco !== null && typings !== undefined) setExtraLib(monaco, `file:///${path}.d.ts`, typings);
  }, [monaco, path, typings]);

  // `nokey`: React Flow must not take keys typed here (Space pans, Backspace deletes) for its own.
  const frame = "nokey overflow-hidden rounded-md border border-line bg-surface focus-within:ring-2 focus-within:ring-focus";
  if (failed !== null) {
    return (
      <div className={frame} data-testid={testId} data-monaco="failed">
        <p className="px-2 pt-2 text-xs text-status-failed">The code editor could not load ({failed}); editing as plain text.</p>
        <textarea aria-label={label} className="h-32 w-full resize-y bg-transparent p-2 font-mono text-xs text-ink outline-none" value={value} readOnly={readOnly} onChange={(event) => onChange(event.target.value)} />
      </div>
    );
  }
  if (monaco === null) {
    return <div className={`${frame} animate-pulse bg-raised`} style={{ height }} data-testid={testId} data-monaco="loading" aria-label={`${label} (loading editor)`} role="status" />;
  }
  return (
    <div className={frame} style={{ height }} data-testid={testId} data-monaco="ready">
      <Editor
        value={value}
        language={language}
        path={path}
        theme={isDark ? "rath-dark" : "rath-light"}
        onChange={(next) => onChange(next ?? "")}
        loading={null}
        options={{
          ariaLabel: label,
          readOnly,
          minimap: { enabled: false },
          lineNumbers: language === "javascript" || language === "json" ? "on" : "off",
          lineNumbersMinChars: 3,
          folding: language !== "markdown" && language !== "plaintext",
          glyphMargin: false,
          wordWrap: "on",
          wrappingIndent: "same",
          fontSize: 12.5,
          lineHeight: 19,
          tabSize: 2,
          scrollBeyondLastLine: false,
          automaticLayout: true,
          fixedOverflowWidgets: true,
          renderLineHighlight: "none",
          overviewRulerLanes: 0,
          padding: { top: 8, bottom: 8 },
          scrollbar: { verticalScrollbarSize: 8, horizontalScrollbarSize: 8, alwaysConsumeMouseWheel: false },
        }}
      />
    </div>
  );
}
