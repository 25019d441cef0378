"use client";
/**
 * The right panel: the selected node's properties (label, description, and the config form derived from its
 * zod schema; a Selector's candidates with their descriptions), the workflow's own settings when nothing is selected, and bulk actions for a multi-selection.
 * Every change is a store edit (undoable; typing in one field coalesces into one step).
 */
import { Copy, Settings2, Trash2 } from "lucide-react";
import { useId } from "react";
import { problemsFor, type ProblemIndex } from "./problem-index";
import { fieldsOfObject, configFieldsOf, editorFor } from "./config-fields";
import { ConfigControl, type PickerOptions } from "./config-controls";
import { useCanvasStore, useCanvasStoreApi } from "./canvas-store-context";
import { NODE_CATALOG } from "./node-catalog";
import { SelectorCandidates } from "./selector-candidates";
import { Button } from "../ui/button";
import { Field, inputClasses } from "../ui/field";
import { TOOL_CODE_TEMPLATE } from "../code-editor/tool-typings";
import { WorkflowSettings, type WorkflowNode } from "../../runtime/workflow-spec/workflow-spec";

/** Props: picker options, the problems found, and the bulk actions the editor owns. */
export interface PropertiesPanelProps {
  options: PickerOptions;
  problems: ProblemIndex;
  onDuplicate: () => void;
  onDelete: () => void;
}

const TOOL_KIND_DEFAULTS: Record<string, Record<string, unknown>> = {
  builtin: { kind: "builtin", name: "read_workspace_file" },
  code: { kind: "code", name: "my_tool", description: "What the tool does, for the model.", parametersSchema: { type: "object", properties: {}, required: [] }, code: TOOL_CODE_TEMPLATE },
  mcp: { kind: "mcp", server: { name: "files", transport: "stdio", command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem", "."] } },
};

function fieldError(problems: ProblemIndex, nodeId: string, key: string): string | null {
  const match = problemsFor(problems, nodeId).find((problem) => problem.path?.includes(key));
  return match?.message ?? null;
}

function NodeProperties({ node, options, problems }: { node: WorkflowNode; options: PickerOptions; problems: ProblemIndex }) {
  const store = useCanvasStoreApi();
  const readOnly = useCanvasStore((state) => state.readOnly);
  const labelId = useId();
  const descriptionId = useId();
  const info = NODE_CATALOG[node.type];
  const Icon = info.icon;
  const config = node.config as Record<string, unknown>;
  const { fields, variant } = configFieldsOf(node.type, config);
  const nodeProblems = problemsFor(problems, node.id).filter((problem) => !fields.some((field) => problem.path?.includes(field.key)));
  const setConfig = (key: string, value: unknown) => {
    const next = { ...config };
    if (value === undefined) delete next[key];
    else next[key] = value;
    store.getState().updateNode(node.id, { config: next }, `${node.id}.config.${key}`);
  };
  return (
    <div className="space-y-4" data-testid="node-properties" data-node-id={node.id}>
      <div className="flex items-center gap-2.5">
        <span className="grid size-8 shrink-0 place-items-center rounded-lg" style={{ color: info.tone, background: `color-mix(in oklab, ${info.tone} 14%, transparent)` }} aria-hidden="true">
          <Icon className="size-4" />
        </span>
        <div className="min-w-0">
          <h2 className="truncate text-sm font-semibold text-ink">{info.title}</h2>
          <p className="truncate font-mono text-xs text-faint">{node.id}</p>
        </div>
      </div>
      {nodeProblems.length > 0 ? (
        <ul className="space-y-1 rounded-md border border-status-failed/40 bg-[color-mix(in_oklab,var(--rath-status-failed)_6%,transparent)] p-2 text-xs text-status-failed">
          {nodeProblems.map((problem, index) => (
            <li key={index}>{problem.message}</li>
          ))}
        </ul>
      ) : null}
      <Field id={labelId} label="Label" hint="Shown on the canvas.">
        <input
          id={labelId}
          className={inputClasses()}
          disabled={readOnly}
          value={node.label ?? ""}
          data-testid="node-label-input"
          onChange={(event) => store.getState().updateNode(node.id, { label: event.target.value }, `${node.id}.label`)}
        />
      </Field>
      <Field id={descriptionId} label="Description" hint={node.type === "agent" || node.type === "subworkflow" || node.type === "compressor" ? "A Selector shows this to its model as the candidate's description." : "What this node is for."}>
        <textarea
          id={descriptionId}
          rows={2}
          className={inputClasses()}
          disabled={readOnly}
          value={node.description ?? ""}
          onChange={(event) => store.getState().updateNode(node.id, { description: event.target.value }, `${node.id}.description`)}
        />
      </Field>
      {variant !== null ? (
        <div role="radiogroup" aria-label="Tool kind" className="grid grid-cols-3 gap-1 rounded-lg bg-sunken p-1">
          {variant.values.map((value) => (
            <button
              key={value}
              type="button"
              role="radio"
              aria-checked={variant.value === value}
              disabled={readOnly}
              onClick={() => {
                if (variant.value !== value) store.getState().updateNode(node.id, { config: TOOL_KIND_DEFAULTS[value] ?? { kind: value } });
              }}
              className={`rounded-md px-2 py-1 text-xs font-medium capitalize ${variant.value === value ? "bg-surface text-ink shadow-sm" : "text-muted hover:text-ink"}`}
            >
              {value === "builtin" ? "built-in" : value === "mcp" ? "MCP" : value}
            </button>
          ))}
        </div>
      ) : null}
      {fields.length === 0 ? <p className="text-xs text-faint">This node has no settings: its wires say everything.</p> : null}
      {fields.map((field) => (
        <ConfigControl
          key={`${variant?.value ?? ""}:${field.key}`}
          field={field}
          editor={editorFor(node.type, field, variant?.value)}
          value={config[field.key]}
          onChange={(value) => setConfig(field.key, value)}
          nodeId={node.id}
          config={config}
          options={options}
          readOnly={readOnly}
          error={fieldError(problems, node.id, field.key)}
        />
      ))}
      {node.type === "selector" ? <SelectorCandidates selectorId={node.id} /> : null}
    </div>
  );
}

function WorkflowProperties({ options }: { options: PickerOptions }) {
  const store = useCanvasStoreApi();
  const document = useCanvasStore((state) => state.document);
  const readOnly = useCanvasStore((state) => state.readOnly);
  const nameId = useId();
  const descriptionId = useId();
  const settings = (document.settings ?? {}) as Record<string, unknown>;
  const setSetting = (key: string, value: unknown) => {
    const next = { ...settings };
    if (value === undefined) delete next[key];
    else next[key] = value;
    store.getState().updateDocument({ settings: Object.keys(next).length === 0 ? undefined : (next) }, `settings.${key}`);
  };
  return (
    <div className="space-y-4" data-testid="workflow-properties">
      <div className="flex items-center gap-2.5">
        <span className="grid size-8 shrink-0 place-items-center rounded-lg bg-raised text-muted" aria-hidden="true">
          <Settings2 className="size-4" />
        </span>
        <div>
          <h2 className="text-sm font-semibold text-ink">Workflow</h2>
          <p className="text-xs text-faint">Select a node to edit it.</p>
        </div>
      </div>
      <Field id={nameId} label="Spec name">
        <input id={nameId} className={inputClasses(document.name.trim() === "")} disabled={readOnly} value={document.name} onChange={(event) => store.getState().updateDocument({ name: event.target.value }, "name")} />
      </Field>
      <Field id={descriptionId} label="Description">
        <textarea id={descriptionId} rows={2} className={inputClasses()} disabled={readOnly} value={document.description ?? ""} onChange={(event) => store.getState().updateDocument({ description: event.target.value === "" ? undefined : event.target.value }, "description")} />
      </Field>
      <h3 className="pt-2 text-xs font-semibold tracking-wide text-faint uppercase">Run settings</h3>
      {fieldsOfObject(WorkflowSettings).map((field) => {
        const key = field.key === "defaultProvider" ? "provider" : field.key === "defaultModel" ? "model" : field.key;
        const editor = key === "provider" ? "provider" : key === "model" ? "model" : "field";
        return (
          <ConfigControl
            key={field.key}
            field={field}
            editor={editor}
            value={settings[field.key]}
            onChange={(value) => setSetting(field.key, value)}
            nodeId="workflow"
            config={settings}
            options={{ ...options, defaultProvider: undefined, defaultModel: undefined }}
            readOnly={readOnly}
          />
        );
      })}
    </div>
  );
}

/** The panel's content for the current selection. */
export function PropertiesPanel({ options, problems, onDuplicate, onDelete }: PropertiesPanelProps) {
  const selection = useCanvasStore((state) => state.selection);
  const nodes = useCanvasStore((state) => state.document.nodes);
  const settings = useCanvasStore((state) => state.document.settings);
  const readOnly = useCanvasStore((state) => state.readOnly);
  const pickerOptions = { ...options, defaultProvider: settings?.defaultProvider, defaultModel: settings?.defaultModel };
  if (selection.nodes.length === 1) {
    const node = nodes.find((candidate) => candidate.id === selection.nodes[0]);
    if (node !== undefined) return <NodeProperties key={node.id} node={node} options={pickerOptions} problems={problems} />;
  }
  if (selection.nodes.length > 1) {
    return (
      <div className="space-y-3" data-testid="multi-selection">
        <h2 className="text-sm font-semibold text-ink">{selection.nodes.length} nodes selected</h2>
        <p className="text-xs text-muted">Drag any of them to move them together, or:</p>
        <div className="flex flex-wrap gap-2">
          <Button icon={Copy} size="sm" onClick={onDuplicate} disabled={readOnly}>
            Duplicate
          </Button>
          <Button icon={Trash2} size="sm" variant="danger" onClick={onDelete} disabled={readOnly}>
            Delete
          </Button>
        </div>
      </div>
    );
  }
  return <WorkflowProperties options={options} />;
}
