"use client";
/**
 * The editor's modes and side features: picker options (providers and models from settings, workflows for
 * sub-workflows), export/import, runs from the canvas with the live overlay, and revision history (a revision
 * opened read-only, restored, or diffed against another). Opening a revision or a diff puts the working document
 * and its undo history aside and brings both back on "Back to editing".
 */
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { ArrowRight, Eye, GitCompare, RotateCcw, X } from "lucide-react";
import Link from "next/link";
import { useCallback, useMemo, useRef, useState, type ReactNode } from "react";
import { toast } from "sonner";
import type { WorkflowSpec } from "../../runtime/workflow-spec/workflow-spec";
import { useTRPC, useTRPCClient } from "../trpc/trpc-context";
import { Button } from "../ui/button";
import { downloadFile } from "../ui/download";
import { statusStyle } from "../ui/status-style";
import { documentFromSpec, type CanvasDocument } from "./canvas-document";
import type { CanvasStore } from "./canvas-store";
import { useCanvasStoreApi } from "./canvas-store-context";
import type { PickerOptions } from "./config-controls";
import type { Decorations, NodeRunStatus } from "./flow-projection";
import { withAttachmentStatus, type OverlayStatus } from "./attachment-status";
import { HistoryDialog } from "./history-dialog";
import { ImportDialog, type PendingImport } from "./import-dialog";
import { diffDocuments, type RevisionDiff } from "./revision-diff";
import { RunDialog } from "./run-dialog";
import { exportFileName, exportText, readImport } from "./transfer";
import { useCanvasRun, type CanvasRun } from "./use-canvas-run";
import { fingerprintOf, type RevisionView, type WorkflowSave } from "./use-workflow-save";

type Mode = { kind: "edit" } | { kind: "revision"; revision: RevisionView } | { kind: "diff"; older: RevisionView; newer: RevisionView; diff: RevisionDiff };

const NO_STATUS: ReadonlyMap<string, OverlayStatus> = new Map();

interface Stash {
  document: CanvasDocument;
  past: { document: CanvasDocument }[];
  future: { document: CanvasDocument }[];
}

/** Everything the editor body needs from the extras. */
export interface EditorExtrasState {
  pickerOptions: PickerOptions;
  runStatus: ReadonlyMap<string, { status: NodeRunStatus; detail?: string }>;
  diffDecorations: Pick<Decorations, "nodeDiff" | "edgeDiff"> | null;
  revisionLabel: string | null;
  banner: ReactNode;
  openRun: () => void;
  openHistory: () => void;
  openImport: () => void;
  exportDocument: (name: string, document: CanvasDocument) => void;
  /** Internal: what the overlay and dialogs render. */
  internals: {
    store: CanvasStore;
    mode: Mode;
    run: CanvasRun;
    runOpen: boolean;
    setRunOpen: (open: boolean) => void;
    historyOpen: boolean;
    setHistoryOpen: (open: boolean) => void;
    pendingImport: PendingImport | null;
    setPendingImport: (pending: PendingImport | null) => void;
    fileInput: React.RefObject<HTMLInputElement | null>;
    onFile: (file: File) => void;
    enter: (mode: Mode, document: CanvasDocument) => void;
    exit: () => void;
    restore: (revision: RevisionView) => void;
    startRun: (input: string | null, saveFirst: boolean) => void;
    saving: WorkflowSave;
    problemCount: number;
    workflowId: string;
    spec: WorkflowSpec;
  };
}

/** Parameters of the extras. */
export interface EditorExtrasParams {
  workflowId: string;
  workflowName: string;
  saving: WorkflowSave;
  problemCount: number;
  spec: WorkflowSpec;
}

/** State and handlers of the extras. */
export function useEditorExtras({ workflowId, workflowName, saving, problemCount, spec }: EditorExtrasParams): EditorExtrasState {
  const store = useCanvasStoreApi();
  const trpc = useTRPC();
  const client = useTRPCClient();
  const queryClient = useQueryClient();
  const providers = useQuery(trpc.settings.providers.list.queryOptions());
  const workflows = useQuery(trpc.workflows.list.queryOptions({ limit: 500, offset: 0 }));
  const run = useCanvasRun(workflowId);
  const [mode, setMode] = useState<Mode>({ kind: "edit" });
  const [runOpen, setRunOpen] = useState(false);
  const [historyOpen, setHistoryOpen] = useState(false);
  const [pendingImport, setPendingImport] = useState<PendingImport | null>(null);
  const stash = useRef<Stash | null>(null);
  const fileInput = useRef<HTMLInputElement | null>(null);

  const pickerOptions = useMemo<PickerOptions>(() => {
    const stored = providers.data ?? [];
    return {
      providers: [
        { name: "scripted", detail: "offline demo (scripted)" },
        ...stored.filter((provider) => provider.name !== "scripted" && provider.name !== "demo").map((provider) => ({ name: provider.name, detail: `${provider.kind}${provider.model ? ` · ${provider.model}` : ""}` })),
      ],
      models: [...new Set(["scripted-1", ...stored.map((provider) => provider.model).filter((model): model is string => typeof model === "string" && model !== "")])],
      workflows: (workflows.data ?? []).filter((workflow) => workflow.id !== workflowId).map((workflow) => ({ id: workflow.id, name: workflow.name })),
    };
  }, [providers.data, workflows.data, workflowId]);

  const enter = useCallback(
    (next: Mode, document: CanvasDocument) => {
      if (stash.current === null) {
        const history = store.temporal.getState();
        stash.current = { document: store.getState().document, past: [...history.pastStates] as Stash["past"], future: [...history.futureStates] as Stash["future"] };
      }
      store.getState().replaceDocument(document, { readOnly: true, resetHistory: true });
      setMode(next);
      setHistoryOpen(false);
    },
    [store],
  );

  const exit = useCallback(() => {
    const kept = stash.current;
    stash.current = null;
    setMode({ kind: "edit" });
    if (kept === null) return;
    store.getState().replaceDocument(kept.document, { resetHistory: true });
    store.temporal.setState({ pastStates: kept.past, futureStates: kept.future });
  }, [store]);

  const restore = useCallback(
    async (revision: RevisionView) => {
      try {
        const saved = await client.workflows.saveRevision.mutate({
          workflowId,
          parentRevisionId: saving.base.revisionId,
          spec: revision.spec,
          layout: (revision.layout ?? { nodes: {} }) as { nodes: Record<string, { x: number; y: number }> },
          message: `Restored revision ${revision.number}`,
        });
        const document = documentFromSpec(saved.spec, saved.layout, workflowName);
        stash.current = null;
        setMode({ kind: "edit" });
        setHistoryOpen(false);
        store.getState().replaceDocument(document, { resetHistory: true });
        saving.setBase({ revisionId: saved.id, number: saved.number, fingerprint: fingerprintOf(document) });
        void queryClient.invalidateQueries({ queryKey: trpc.workflows.listRevisions.queryKey({ workflowId }) });
        toast.success(`Restored revision ${revision.number} as revision ${saved.number}`);
      } catch (error) {
        const code = (error as { data?: { code?: string } }).data?.code;
        toast.error("Not restored", { description: code === "conflict" ? "The workflow was saved elsewhere meanwhile: reload it first." : error instanceof Error ? error.message : String(error) });
      }
    },
    [client, queryClient, saving, store, trpc, workflowId, workflowName],
  );

  const onFile = useCallback(
    (file: File) => {
      void file.text().then((text) => {
        const result = readImport(text, workflowName);
        if (!result.ok) {
          setPendingImport({ kind: "error", fileName: file.name, message: result.message });
          return;
        }
        const load = () => {
          if (stash.current !== null) exit();
          store.getState().replaceDocument(result.document);
          toast.success(`Imported ${file.name}`, { description: "Nothing is saved until you press Save (undo brings the previous canvas back)." });
        };
        if (result.problems.length > 0) setPendingImport({ kind: "problems", fileName: file.name, problems: result.problems, load });
        else load();
      });
    },
    [exit, store, workflowName],
  );

  const startRun = useCallback(
    async (input: string | null, saveFirst: boolean) => {
      if (saveFirst) {
        const saved = await saving.save("Saved to run");
        if (saved === null) return;
      }
      const entries = store.getState().document.nodes.filter((node) => node.type === "input").map((node) => node.id);
      if (await run.start(input, entries)) setRunOpen(false);
    },
    [run, saving, store],
  );

  const diffDecorations = useMemo(() => (mode.kind === "diff" ? { nodeDiff: mode.diff.nodes, edgeDiff: mode.diff.edges } : null), [mode]);
  const runStatus = useMemo(() => (mode.kind === "edit" && run.overlay !== null ? withAttachmentStatus(run.overlay.nodes, spec.nodes, spec.edges) : NO_STATUS), [mode.kind, run.overlay, spec.nodes, spec.edges]);

  let banner: ReactNode = null;
  let revisionLabel: string | null = null;
  if (mode.kind === "revision") {
    revisionLabel = `revision ${mode.revision.number} · read-only`;
    banner = (
      <div className="flex min-w-0 items-center gap-2 rounded-md bg-accent-soft px-2 py-1 text-xs text-ink" data-testid="readonly-banner">
        <Eye className="size-3.5 shrink-0 text-accent" aria-hidden="true" />
        <span className="hidden truncate lg:inline">Viewing revision {mode.revision.number}</span>
        <Button size="sm" icon={RotateCcw} onClick={() => void restore(mode.revision)} disabled={mode.revision.id === saving.base.revisionId} data-testid="restore-revision">
          Restore
        </Button>
        <Button size="sm" variant="ghost" onClick={exit} data-testid="back-to-editing">
          Back to editing
        </Button>
      </div>
    );
  } else if (mode.kind === "diff") {
    const counts = { added: 0, removed: 0, changed: 0 };
    for (const mark of mode.diff.nodes.values()) counts[mark] += 1;
    revisionLabel = `revision ${mode.older.number} → ${mode.newer.number}`;
    banner = (
      <div className="flex min-w-0 items-center gap-2 rounded-md bg-accent-soft px-2 py-1 text-xs text-ink" data-testid="diff-banner">
        <GitCompare className="size-3.5 shrink-0 text-accent" aria-hidden="true" />
        <span className="hidden truncate tabular lg:inline">
          <span className="text-status-succeeded">+{counts.added}</span> <span className="text-status-failed">−{counts.removed}</span> <span className="text-status-waiting">~{counts.changed}</span> nodes
        </span>
        <Button size="sm" variant="ghost" onClick={exit} data-testid="back-to-editing">
          Back to editing
        </Button>
      </div>
    );
  }

  return {
    pickerOptions,
    runStatus,
    diffDecorations,
    revisionLabel,
    banner,
    openRun: () => setRunOpen(true),
    openHistory: () => setHistoryOpen(true),
    openImport: () => fileInput.current?.click(),
    exportDocument: (name, document) => downloadFile(exportFileName(name), exportText(document)),
    internals: {
      store,
      mode,
      run,
      runOpen,
      setRunOpen,
      historyOpen,
      setHistoryOpen,
      pendingImport,
      setPendingImport,
      fileInput,
      onFile,
      enter,
      exit,
      restore: (revision) => void restore(revision),
      startRun: (input, saveFirst) => void startRun(input, saveFirst),
      saving,
      problemCount,
      workflowId,
      spec,
    },
  };
}

function RunOverlayCard({ run }: { run: CanvasRun }) {
  if (run.runId === null || run.overlay === null) return null;
  const style = statusStyle(run.overlay.runStatus);
  const Icon = style.icon;
  return (
    <div className="absolute top-3 left-3 z-10 w-[min(340px,calc(100%-1.5rem))] rounded-lg border border-line bg-surface/95 p-2.5 text-xs shadow-md backdrop-blur" data-testid="run-overlay" data-run-id={run.runId} data-status={run.overlay.runStatus} role="status">
      <div className="flex items-center gap-2">
        <Icon className={`size-4 shrink-0 ${style.spinning ? "animate-spin" : ""}`} style={{ color: style.color }} aria-hidden="true" />
        <span className="font-medium text-ink">Run {style.label}</span>
        <Link href={`/runs/${run.runId}`} className="ml-auto inline-flex items-center gap-1 font-medium text-accent hover:underline" data-testid="run-overlay-link">
          Open run <ArrowRight className="size-3" aria-hidden="true" />
        </Link>
        <button type="button" onClick={run.clear} aria-label="Hide the run overlay" className="rounded p-0.5 text-muted hover:bg-raised hover:text-ink">
          <X className="size-3.5" aria-hidden="true" />
        </button>
      </div>
      {run.overlay.error !== null ? <p className="mt-1.5 line-clamp-3 text-status-failed" data-testid="run-overlay-error">{run.overlay.error}</p> : null}
      {run.overlay.output !== null ? (
        <p className="mt-1.5 line-clamp-4 whitespace-pre-wrap text-muted" data-testid="run-overlay-output">
          {run.overlay.output}
        </p>
      ) : null}
    </div>
  );
}

function DiffCard({ diff, store }: { diff: RevisionDiff; store: CanvasStore }) {
  const entries = [...diff.nodes].filter(([, mark]) => mark !== undefined);
  return (
    <div className="absolute top-3 left-3 z-10 max-h-[60%] w-[min(360px,calc(100%-1.5rem))] overflow-y-auto rounded-lg border border-line bg-surface/95 p-2.5 text-xs shadow-md backdrop-blur" data-testid="diff-summary">
      <h2 className="mb-1.5 font-semibold text-ink">What changed</h2>
      {entries.length === 0 && diff.workflowChanges.length === 0 ? <p className="text-muted">The two revisions have the same nodes; only positions or wires differ.</p> : null}
      <ul className="space-y-1.5">
        {diff.workflowChanges.map((change) => (
          <li key={change.field} className="text-muted">
            workflow {change.field}: <span className="text-status-failed line-through">{change.before}</span> → <span className="text-status-succeeded">{change.after}</span>
          </li>
        ))}
        {entries.map(([id, mark]) => (
          <li key={id}>
            <button type="button" className="w-full rounded px-1 py-0.5 text-left hover:bg-raised" onClick={() => store.getState().select({ nodes: [id], edges: [] })} data-testid="diff-entry" data-node-id={id} data-diff={mark}>
              <span className={`font-medium ${mark === "added" ? "text-status-succeeded" : mark === "removed" ? "text-status-failed" : "text-status-waiting"}`}>{mark}</span> <span className="font-mono text-ink">{id}</span>
              {(diff.changes.get(id) ?? []).map((change) => (
                <span key={change.field} className="mt-0.5 block text-muted">
                  {change.field}: <span className="break-all text-status-failed line-through">{change.before}</span> → <span className="break-all text-status-succeeded">{change.after}</span>
                </span>
              ))}
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}

function Overlay({ extras }: { extras: EditorExtrasState }) {
  const { mode, run, store } = extras.internals;
  if (mode.kind === "diff") return <DiffCard diff={mode.diff} store={store} />;
  if (mode.kind === "edit") return <RunOverlayCard run={run} />;
  return null;
}

function Dialogs({ extras }: { extras: EditorExtrasState }) {
  const internals = extras.internals;
  const inputNode = internals.store.getState().document.nodes.find((node) => node.type === "input") ?? null;
  return (
    <>
      <input
        ref={internals.fileInput}
        type="file"
        accept="application/json,.json"
        className="hidden"
        data-testid="import-file"
        aria-label="Import a workflow file"
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = "";
          if (file !== undefined) internals.onFile(file);
        }}
      />
      <ImportDialog pending={internals.pendingImport} onClose={() => internals.setPendingImport(null)} />
      {internals.runOpen ? (
        <RunDialog
          open
          onClose={() => internals.setRunOpen(false)}
          inputNode={inputNode}
          revisionNumber={internals.saving.base.number}
          dirty={internals.saving.dirty}
          problemCount={internals.problemCount}
          busy={internals.run.starting || internals.saving.saving}
          onStart={internals.startRun}
        />
      ) : null}
      <HistoryDialog
        open={internals.historyOpen}
        onClose={() => internals.setHistoryOpen(false)}
        workflowId={internals.workflowId}
        headRevisionId={internals.saving.base.revisionId}
        onOpen={(revision) => internals.enter({ kind: "revision", revision }, documentFromSpec(revision.spec, revision.layout, "revision"))}
        onRestore={internals.restore}
        onCompare={(older, newer) => {
          const diff = diffDocuments(documentFromSpec(older.spec, older.layout, "older"), documentFromSpec(newer.spec, newer.layout, "newer"));
          internals.enter({ kind: "diff", older, newer, diff }, diff.merged);
        }}
      />
    </>
  );
}

/** The overlay (run status or diff summary, on the canvas) and the dialogs (run, history, import). */
export const EditorExtras = { Overlay, Dialogs };
