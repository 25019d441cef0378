"use client";
/**
 * Loads Monaco from the app's own bundle: the `monaco-editor` package is imported on demand and handed to
 * @monaco-editor/react's loader (`loader.config({ monaco })`), which otherwise fetches Monaco from a CDN. Its
 * workers are bundled from local entry files (workers/). Also sets up, once: the Rath light/dark themes, JSON
 * schema validation against the JSON Schema meta-schema, and JavaScript checking for custom tool code.
 */
import { loader } from "@monaco-editor/react";
import { JSON_SCHEMA_META_SCHEMA } from "./json-meta-schema";

/** The `monaco-editor` module. */
export type MonacoApi = typeof import("monaco-editor");

/** Files whose model path ends with this are validated as JSON schemas. */
export const JSON_SCHEMA_FILE_SUFFIX = ".schema.json";

let ready: Promise<MonacoApi> | null = null;

function workerFor(label: string): Worker {
  if (label === "json") return new Worker(new URL("./workers/json.worker.ts", import.meta.url), { type: "module", name: "monaco-json" });
  if (label === "typescript" || label === "javascript") {
    return new Worker(new URL("./workers/ts.worker.ts", import.meta.url), { type: "module", name: "monaco-ts" });
  }
  return new Worker(new URL("./workers/editor.worker.ts", import.meta.url), { type: "module", name: "monaco-editor" });
}

function configure(monaco: MonacoApi): void {
  monaco.editor.defineTheme("rath-light", {
    base: "vs",
    inherit: true,
    rules: [],
    colors: { "editor.background": "#ffffff", "editorLineNumber.foreground": "#a1a1aa", "editor.lineHighlightBackground": "#f6f6f7" },
  });
  monaco.editor.defineTheme("rath-dark", {
    base: "vs-dark",
    inherit: true,
    rules: [],
    colors: { "editor.background": "#101013", "editorLineNumber.foreground": "#52525b", "editor.lineHighlightBackground": "#16161a" },
  });
  monaco.json.jsonDefaults.setDiagnosticsOptions({
    validate: true,
    allowComments: false,
    enableSchemaRequest: false,
    // A parameters schema that breaks the JSON Schema meta-schema is an error (the server refuses it too).
    schemaValidation: "error",
    schemas: [{ uri: "inmemory://rath/json-schema-meta-schema.json", fileMatch: [`*${JSON_SCHEMA_FILE_SUFFIX}`], schema: JSON_SCHEMA_META_SCHEMA }],
  });
  monaco.typescript.javascriptDefaults.setCompilerOptions({
    allowJs: true,
    checkJs: true,
    allowNonTsExtensions: true,
    target: monaco.typescript.ScriptTarget.ES2020,
    module: monaco.typescript.ModuleKind.ESNext,
    moduleResolution: monaco.typescript.ModuleResolutionKind.NodeJs,
    noEmit: true,
  });
  monaco.typescript.javascriptDefaults.setDiagnosticsOptions({ noSemanticValidation: false, noSyntaxValidation: false });
}

/** Monaco, loaded once from the app bundle and configured; resolves before any editor mounts. */
export function ensureMonaco(): Promise<MonacoApi> {
  ready ??= (async () => {
    (self as unknown as { MonacoEnvironment: { getWorker: (id: string, label: string) => Worker } }).MonacoEnvironment = {
      getWorker: (_id, label) => workerFor(label),
    };
    const monaco = await import("monaco-editor");
    loader.config({ monaco: monaco });
    configure(monaco);
    return monaco;
  })();
  return ready;
}

const extraLibs = new Map<string, { dispose: () => void }>();

/** Declares (or replaces) a typings file for JavaScript models, e.g. the argument type of a custom tool. */
export function setExtraLib(monaco: MonacoApi, path: string, content: string): void {
  extraLibs.get(path)?.dispose();
  extraLibs.set(path, monaco.typescript.javascriptDefaults.addExtraLib(content, path));
}
