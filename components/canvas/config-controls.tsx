"use client";
/**
 * The controls of a derived config form: one per field kind (text, number, switch, select, list, JSON) plus the
 * editors `editorFor` picks (Monaco for prompts, tool code and JSON schemas; pickers for provider, model,
 * built-in tools and sub-workflows). Each reports the field's next value; `undefined` removes an optional key.
 */
import { useEffect, useId, useState } from "react";
import { BUILTIN_TOOL_NAMES } from "../../runtime/workflow-spec/builtin-tool-names";
import { CodeEditor } from "../code-editor/code-editor";
import { JSON_SCHEMA_FILE_SUFFIX } from "../code-editor/monaco-setup";
import { toolTypings } from "../code-editor/tool-typings";
import { Field, fieldDescribedBy, inputClasses } from "../ui/field";
import { fieldTitle, type ConfigField, type FieldEditor } from "./config-fields";

/** Options the pickers offer, fed by settings and the workflow list. */
export interface PickerOptions {
  readonly providers: readonly { name: string; detail: string }[];
  readonly models: readonly string[];
  readonly workflows: readonly { id: string; name: string }[];
  /** What an unset provider/model falls back to (the workflow's defaults). */
  readonly defaultProvider?: string | undefined;
  readonly defaultModel?: string | undefined;
}

/** Props of one control. */
export interface ConfigControlProps {
  field: ConfigField;
  editor: FieldEditor;
  value: unknown;
  onChange: (value: unknown) => void;
  nodeId: string;
  /** The whole config (a code tool's typings read its name and schema). */
  config: Record<string, unknown>;
  options: PickerOptions;
  readOnly: boolean;
  error?: string | null;
}

const HINTS: Partial<Record<string, string>> = {
  instructions: "The system prompt (Markdown).",
  maxRounds: "Model rounds before the loop stops (default 64).",
  branches: "When set, must equal the number of outgoing wires.",
  defaultText: "Used when a run starts without input.",
  topK: "How many memory hits to recall.",
  remember: "memory://scope/path — store the answer here after the loop.",
  timeoutMs: "Milliseconds before it gives up.",
  revisionId: "Empty: the latest revision.",
  tools: "One name per line; empty exposes every tool of the server.",
  policy: "Tool policy: allowedTools, filesystemRoots, commandAllow, commandDeny, maxCalls.",
  server: "{ name, transport: \"stdio\", command, args } or { name, transport: \"http\", url }.",
};

function JsonText({ id, value, onChange, path, label, readOnly, schemaFile, describedBy }: { id: string; value: unknown; onChange: (value: unknown) => void; path: string; label: string; readOnly: boolean; schemaFile: boolean; describedBy?: string | undefined }) {
  const serialised = value === undefined ? "" : JSON.stringify(value, null, 2);
  const [text, setText] = useState(serialised);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    // An outside change (undo, another field) replaces the draft unless the draft already means the same value.
    setText((draft) => {
      try {
        if (draft.trim() !== "" && JSON.stringify(JSON.parse(draft)) === JSON.stringify(value)) return draft;
      } catch {
        // The draft is not JSON: the outside value wins.
      }
      return serialised;
    });
  }, [serialised, value]);
  return (
    <div id={id} aria-describedby={describedBy}>
      <CodeEditor
        value={text}
        language="json"
        path={`${path}${schemaFile ? JSON_SCHEMA_FILE_SUFFIX : ".json"}`}
        label={label}
        height={schemaFile ? 180 : 120}
        readOnly={readOnly}
        testId={`json-editor-${label}`}
        onChange={(next) => {
          setText(next);
          if (next.trim() === "") {
            setError(null);
            onChange(undefined);
            return;
          }
          try {
            const parsed: unknown = JSON.parse(next);
            setError(null);
            onChange(parsed);
          } catch (parseError) {
            setError(`not valid JSON yet: ${parseError instanceof Error ? parseError.message : String(parseError)}`);
          }
        }}
      />
      {error !== null ? <p className="mt-1 text-xs text-status-failed">{error}</p> : null}
    </div>
  );
}

/** One config field with its label, hint and error. */
export function ConfigControl({ field, editor, value, onChange, nodeId, config, options, readOnly, error }: ConfigControlProps) {
  const id = useId();
  const hint = HINTS[field.key];
  const describedBy = fieldDescribedBy(id, hint !== undefined, Boolean(error));
  const label = (
    <>
      {fieldTitle(field.key)}
      {field.optional ? <span className="font-normal text-faint"> · optional</span> : null}
    </>
  );
  const path = `node/${nodeId}/${field.key}`;
  const text = typeof value === "string" ? value : "";
  const common = { id, "aria-describedby": describedBy, "aria-invalid": error ? true : undefined, disabled: readOnly } as const;

  let control;
  switch (editor) {
    case "prompt":
      control = (
        <CodeEditor value={text} onChange={(next) => onChange(next)} language="markdown" path={`${path}.md`} label={`${fieldTitle(field.key)} of ${nodeId}`} height={200} readOnly={readOnly} testId="prompt-editor" />
      );
      break;
    case "code":
      control = (
        <CodeEditor
          value={text}
          onChange={(next) => onChange(next)}
          language="javascript"
          path={`${path}.js`}
          label={`Code of ${nodeId}`}
          height={240}
          readOnly={readOnly}
          typings={toolTypings(typeof config.name === "string" ? config.name : "tool", config.parametersSchema)}
          testId="code-editor"
        />
      );
      break;
    case "json-schema":
    case "json":
      control = <JsonText id={id} value={value} onChange={onChange} path={path} label={`${fieldTitle(field.key)} of ${nodeId}`} readOnly={readOnly} schemaFile={editor === "json-schema"} describedBy={describedBy} />;
      break;
    case "provider":
      control = (
        <select {...common} className={inputClasses(Boolean(error))} value={text} onChange={(event) => onChange(event.target.value === "" ? undefined : event.target.value)}>
          <option value="">{options.defaultProvider ? `Workflow default (${options.defaultProvider})` : "Workflow default (not set)"}</option>
          {options.providers.map((provider) => (
            <option key={provider.name} value={provider.name}>
              {provider.name} — {provider.detail}
            </option>
          ))}
          {text !== "" && !options.providers.some((provider) => provider.name === text) ? <option value={text}>{text} (not configured)</option> : null}
        </select>
      );
      break;
    case "model":
      control = (
        <>
          <input
            {...common}
            list={`${id}-models`}
            className={inputClasses(Boolean(error))}
            value={text}
            placeholder={options.defaultModel ? `Workflow default (${options.defaultModel})` : "model name"}
            onChange={(event) => onChange(event.target.value === "" ? undefined : event.target.value)}
          />
          <datalist id={`${id}-models`}>
            {options.models.map((model) => (
              <option key={model} value={model} />
            ))}
          </datalist>
        </>
      );
      break;
    case "builtin-name":
      control = (
        <select {...common} className={inputClasses(Boolean(error))} value={text} onChange={(event) => onChange(event.target.value)}>
          {BUILTIN_TOOL_NAMES.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
      );
      break;
    case "builtin-list": {
      const chosen = new Set(Array.isArray(value) ? (value as string[]) : []);
      control = (
        <div id={id} role="group" aria-describedby={describedBy} className="grid grid-cols-1 gap-1 rounded-md border border-line bg-surface p-2 sm:grid-cols-2">
          {BUILTIN_TOOL_NAMES.map((name) => (
            <label key={name} className="flex min-w-0 items-center gap-2 text-xs text-ink">
              <input
                type="checkbox"
                className="accent-[var(--rath-accent)]"
                checked={chosen.has(name)}
                disabled={readOnly}
                onChange={(event) => {
                  const next = new Set(chosen);
                  if (event.target.checked) next.add(name);
                  else next.delete(name);
                  onChange(next.size === 0 ? undefined : BUILTIN_TOOL_NAMES.filter((tool) => next.has(tool)));
                }}
              />
              <span className="truncate font-mono">{name}</span>
            </label>
          ))}
        </div>
      );
      break;
    }
    case "workflow":
      control = (
        <select {...common} className={inputClasses(Boolean(error))} value={text} onChange={(event) => onChange(event.target.value)}>
          <option value="">Choose a workflow…</option>
          {options.workflows.map((workflow) => (
            <option key={workflow.id} value={workflow.id}>
              {workflow.name}
            </option>
          ))}
          {text !== "" && !options.workflows.some((workflow) => workflow.id === text) ? <option value={text}>{text}</option> : null}
        </select>
      );
      break;
    default:
      control = plainControl(field, value, onChange, common, Boolean(error));
  }
  return (
    <Field id={id} label={label} hint={hint} error={error ?? null}>
      {control}
    </Field>
  );
}

function plainControl(field: ConfigField, value: unknown, onChange: (value: unknown) => void, common: Record<string, unknown>, invalid: boolean) {
  switch (field.kind) {
    case "boolean":
      return (
        <label className="flex items-center gap-2 text-sm text-ink">
          <input {...common} type="checkbox" className="size-4 accent-[var(--rath-accent)]" checked={value === true} onChange={(event) => onChange(event.target.checked)} />
          <span className="text-muted">{value === true ? "on" : "off"}</span>
        </label>
      );
    case "number":
    case "integer":
      return (
        <input
          {...common}
          type="number"
          inputMode="numeric"
          className={`${inputClasses(invalid)} tabular`}
          min={field.min}
          step={field.kind === "integer" ? 1 : "any"}
          value={typeof value === "number" ? value : ""}
          onChange={(event) => onChange(event.target.value === "" ? undefined : Number(event.target.value))}
        />
      );
    case "enum":
      return (
        <select {...common} className={inputClasses(invalid)} value={typeof value === "string" ? value : ""} onChange={(event) => onChange(event.target.value === "" ? undefined : event.target.value)}>
          {field.optional || typeof value !== "string" ? <option value="">Not set</option> : null}
          {(field.options ?? []).map((option) => (
            <option key={option} value={option}>
              {option}
            </option>
          ))}
        </select>
      );
    case "string-list":
      return (
        <textarea
          {...common}
          rows={3}
          className={`${inputClasses(invalid)} font-mono text-xs`}
          value={Array.isArray(value) ? (value as string[]).join("\n") : ""}
          onChange={(event) => {
            const items = event.target.value.split("\n").map((item) => item.trim());
            onChange(items.every((item) => item === "") && field.optional ? undefined : items.filter((item, index) => item !== "" || index === items.length - 1));
          }}
        />
      );
    default:
      return (
        <input
          {...common}
          className={inputClasses(invalid)}
          value={typeof value === "string" ? value : ""}
          onChange={(event) => onChange(event.target.value === "" && field.optional ? undefined : event.target.value)}
        />
      );
  }
}
