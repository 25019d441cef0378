"use client";
/**
 * The workflow editor: palette | canvas | properties, problems below, toolbar above. Owns the canvas store (one
 * per open workflow), validation, saving (revisions, conflicts, draft), the keyboard, the command palette,
 * auto-layout, copy/paste, runs from the canvas and revision history.
 */
import { ReactFlowProvider, useReactFlow } from "@xyflow/react";
import { Copy, Download, GitCompare, History, Keyboard, LayoutGrid, Maximize, Play, Redo2, Save, Trash2, Undo2, Upload } from "lucide-react";
import { useRouter } from "next/navigation";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { toast } from "sonner";
import { useQueryClient } from "@tanstack/react-query";
import type { Problem } from "../../runtime/workflow-spec/problems";
import type { NodeType } from "../../runtime/workflow-spec/workflow-spec";
import { createGraphLayoutEngine, type GraphLayoutEngine } from "../graph-layout/layout-engine";
import { useTRPC, useTRPCClient } from "../trpc/trpc-context";
import { ResizeHandle, usePanelSize } from "../ui/resize-handle";
import { copyFragment, parseFragment } from "./canvas-clipboard";
import { documentFromSpec, emptyDocument, nodesWithoutPosition, toLayout, toSpec, type CanvasDocument } from "./canvas-document";
import { CanvasFlow } from "./canvas-flow";
import { createCanvasStore } from "./canvas-store";
import { CanvasStoreProvider, useCanvasHistory, useCanvasStore, useCanvasStoreApi } from "./canvas-store-context";
import { CommandPalette, type PaletteAction } from "./command-palette";
import { autoLayout, NODE_SIZE } from "./auto-layout";
import { warmUpLayout } from "./layout-warm-up";
import { clearDraft, readDraft } from "./draft-storage";
import { EditorToolbar } from "./editor-toolbar";
import { NO_DECORATIONS, type Decorations } from "./flow-projection";
import { FIT_VIEW, openFit } from "./open-view";
import { NodePalette } from "./node-palette";
import { indexProblems, problemDecorations } from "./problem-index";
import { ProblemsPanel } from "./problems-panel";
import { PropertiesPanel } from "./properties-panel";
import { SaveConflictDialog } from "./save-conflict-dialog";
import { ShortcutHelpDialog } from "./shortcut-help-dialog";
import { useEditorShortcuts } from "./use-editor-shortcuts";
import { useValidation } from "./use-validation";
import { fingerprintOf, useWorkflowSave, type RevisionView } from "./use-workflow-save";
import { EditorExtras, useEditorExtras } from "./editor-extras";
import { useRevisionLink } from "./use-revision-link";
import { useLeaveGuard } from "./use-leave-guard";
import { LeaveDialog } from "./leave-dialog";

/** What the page hands in: the workflow and its head revision (null before the first save). */
export interface WorkflowEditorProps {
  workflow: { id: string; name: string; headRevisionId: string | null };
  head: RevisionView | null;
}

function documentOf(workflowName: string, head: RevisionView | null): CanvasDocument {
  return head === null ? emptyDocument(workflowName) : documentFromSpec(head.spec, head.layout, workflowName);
}

const LEFT_LIMITS = { initial: 224, min: 180, max: 360 };
const RIGHT_LIMITS = { initial: 360, min: 280, max: 640 };
const BOTTOM_LIMITS = { initial: 132, min: 64, max: 420 };

/** The editor (client component). */
export function WorkflowEditor(props: WorkflowEditorProps) {
  const [store] = useState(() => createCanvasStore(documentOf(props.workflow.name, props.head)));
  return (
    <CanvasStoreProvider store={store}>
      <ReactFlowProvider>
        <EditorBody {...props} />
      </ReactFlowProvider>
    </CanvasStoreProvider>
  );
}

function EditorBody({ workflow, head }: WorkflowEditorProps) {
  const store = useCanvasStoreApi();
  const trpc = useTRPC();
  const client = useTRPCClient();
  const queryClient = useQueryClient();
  const router = useRouter();
  const flow = useReactFlow();
  const document = useCanvasStore((state) => state.document);
  const readOnly = useCanvasStore((state) => state.readOnly);
  const canUndo = useCanvasHistory((state) => state.pastStates.length > 0);
  const canRedo = useCanvasHistory((state) => state.futureStates.length > 0);
  const initialBase = useMemo(
    () => ({ revisionId: head?.id ?? null, number: head?.number ?? null, fingerprint: fingerprintOf(documentOf(workflow.name, head)) }),
    [head, workflow.name],
  );
  const saving = useWorkflowSave(workflow.id, document, initialBase, !readOnly);
  const leavePrompt = useLeaveGuard(saving.dirty);
  const spec = useMemo(() => toSpec(document), [document]);
  const validation = useValidation(spec);
  const problems = useMemo(() => indexProblems(saving.refusedProblems !== null && validation.problems.length === 0 ? saving.refusedProblems : validation.problems, document.nodes), [validation.problems, saving.refusedProblems, document.nodes]);
  const extras = useEditorExtras({ workflowId: workflow.id, workflowName: workflow.name, saving, problemCount: problems.all.length, spec });
  const decorations = useMemo<Decorations>(() => {
    if (extras.diffDecorations !== null) return { ...NO_DECORATIONS, ...extras.diffDecorations };
    return { ...NO_DECORATIONS, ...problemDecorations(problems), status: extras.runStatus };
  }, [problems, extras.diffDecorations, extras.runStatus]);

  const [leftSize, setLeftSize] = usePanelSize("canvas-palette", LEFT_LIMITS);
  const [rightSize, setRightSize] = usePanelSize("canvas-properties", RIGHT_LIMITS);
  const [bottomSize, setBottomSize] = usePanelSize("canvas-problems", BOTTOM_LIMITS);
  const [mobilePanel, setMobilePanel] = useState<"left" | "right" | null>(null);
  const [paletteOpen, setPaletteOpen] = useState(false);
  const [helpOpen, setHelpOpen] = useState(false);
  const [conflictBusy, setConflictBusy] = useState(false);
  const [lastLayout, setLastLayout] = useState<{ ms: number; thread: string; count: number } | null>(null);
  const canvasArea = useRef<HTMLDivElement>(null);
  const root = useRef<HTMLDivElement>(null);
  const [height, setHeight] = useState<number | null>(null);

  // The editor fills the window below whatever the layout puts above it (header, notices), without page scroll.
  useEffect(() => {
    const fit = () => {
      const top = root.current?.getBoundingClientRect().top ?? 0;
      setHeight(Math.max(320, window.innerHeight - top));
    };
    fit();
    const observer = new ResizeObserver(fit);
    observer.observe(window.document.body);
    window.addEventListener("resize", fit);
    return () => {
      observer.disconnect();
      window.removeEventListener("resize", fit);
    };
  }, []);
  const layoutEngine = useRef<GraphLayoutEngine | null>(null);

  const [layoutWarm, setLayoutWarm] = useState(false);
  // Whether the head revision has a stored position for every node; else it is laid out by ELK once, on open.
  const openLayout = useMemo(() => (head === null || nodesWithoutPosition(head.spec, head.layout).length === 0 ? "stored" : "elk"), [head]);

  useEffect(() => {
    const engine = createGraphLayoutEngine();
    layoutEngine.current = engine;
    const cancelWarmUp = warmUpLayout(engine, () => store.getState().document, () => setLayoutWarm(true));
    return () => {
      cancelWarmUp();
      engine.dispose();
      layoutEngine.current = null;
    };
  }, [store]);

  // A draft left by a crashed or closed tab comes back, with a way to drop it. Without one, a saved workflow that
  // has no positions (written by hand or through the API) is laid out once by ELK; that layout counts as saved.
  useEffect(() => {
    const draft = readDraft(window.localStorage, workflow.id);
    if (draft === null) {
      if (openLayout === "stored" || layoutEngine.current === null) return;
      const engine = layoutEngine.current;
      void autoLayout(engine, store.getState().document, () => undefined).then(
        (result) => {
          const current = store.getState().document;
          if (fingerprintOf(current) !== initialBase.fingerprint) return;
          const laidOut = { ...current, positions: { ...current.positions, ...result.positions } };
          store.getState().replaceDocument(laidOut, { resetHistory: true });
          saving.setBase({ ...initialBase, fingerprint: fingerprintOf(laidOut) });
          window.requestAnimationFrame(() => void flow.fitView(openFit(laidOut, canvasArea.current?.clientWidth ?? 0)));
        },
        () => undefined,
      );
      return;
    }
    const restored = documentFromSpec(draft.spec, draft.layout, workflow.name);
    if (fingerprintOf(restored) === initialBase.fingerprint) {
      clearDraft(window.localStorage, workflow.id);
      return;
    }
    store.getState().replaceDocument(restored, { resetHistory: true });
    toast.info("Restored your unsaved changes", {
      id: "draft-restored",
      description: `From ${new Date(draft.savedAt).toLocaleString()}.${draft.baseRevisionId !== initialBase.revisionId ? " The workflow was saved elsewhere since." : ""}`,
      action: { label: "Discard", onClick: () => store.getState().replaceDocument(documentOf(workflow.name, head), { resetHistory: true }) },
      duration: 10_000,
    });
    // Once, on open: later changes of these values must not restore the draft again.
    // eslint-disable-next-line react-hooks/exhaustive-deps -- deliberately runs once, on open
  }, []);

  const centreOf = useCallback(() => {
    const box = canvasArea.current?.getBoundingClientRect();
    if (box === undefined) return { x: 0, y: 0 };
    const point = flow.screenToFlowPosition({ x: box.left + box.width / 2, y: box.top + box.height / 2 });
    return { x: Math.round((point.x - NODE_SIZE.width / 2) / 16) * 16, y: Math.round((point.y - NODE_SIZE.height / 2) / 16) * 16 };
  }, [flow]);

  const addAtCentre = useCallback(
    (type: NodeType) => {
      const taken = store.getState().document.positions;
      let position = centreOf();
      while (Object.values(taken).some((other) => Math.abs(other.x - position.x) < 24 && Math.abs(other.y - position.y) < 24)) position = { x: position.x + 32, y: position.y + 32 };
      store.getState().addNode(type, position);
      setMobilePanel(null);
    },
    [centreOf, store],
  );

  const reveal = useCallback(
    (nodeId: string) => {
      const position = store.getState().document.positions[nodeId];
      if (position === undefined) return;
      store.getState().select({ nodes: [nodeId], edges: [] });
      const zoom = Math.max(flow.getZoom(), 0.9);
      const sizeNow = () => {
        const measured = flow.getNode(nodeId)?.measured;
        return { width: measured?.width ?? NODE_SIZE.width, height: measured?.height ?? NODE_SIZE.height };
      };
      const centreOn = (size: { width: number; height: number }, duration: number) => flow.setCenter(position.x + size.width / 2, position.y + size.height / 2, { zoom, duration });
      // Seen from afar (below FAR_ZOOM) the node is drawn short; zoomed in it is measured again at its full size,
      // so once the pan has ended and that size is known, centre on it again.
      const first = sizeNow();
      void centreOn(first, 300).then(() =>
        window.requestAnimationFrame(() =>
          window.requestAnimationFrame(() => {
            const full = sizeNow();
            if (full.width !== first.width || full.height !== first.height) void centreOn(full, 150);
          }),
        ),
      );
    },
    [flow, store],
  );

  const isDrawn = useCallback((nodeId: string) => flow.getNode(nodeId)?.measured?.width !== undefined, [flow]);
  useRevisionLink(workflow.id, (revision, opened) => extras.internals.enter({ kind: "revision", revision }, opened), reveal, isDrawn);

  const revealProblem = useCallback(
    (problem: Problem) => {
      if (problem.nodeId !== undefined) return reveal(problem.nodeId);
      const edge = store.getState().document.edges.find((candidate) => candidate.id === problem.edgeId);
      if (edge !== undefined) {
        reveal(edge.source);
        store.getState().select({ nodes: [edge.source, edge.target].filter((id) => store.getState().document.positions[id] !== undefined), edges: [edge.id] });
      }
    },
    [reveal, store],
  );

  const runAutoLayout = useCallback(async () => {
    const engine = layoutEngine.current;
    const state = store.getState();
    if (engine === null || state.readOnly || state.document.nodes.length === 0) return;
    try {
      const result = await autoLayout(engine, state.document, (id) => {
        const measured = flow.getNode(id)?.measured;
        return measured?.width !== undefined && measured.height !== undefined ? { width: measured.width, height: measured.height } : undefined;
      });
      store.getState().moveNodes(result.positions);
      setLastLayout((previous) => ({ ms: Math.round(result.elapsedMs), thread: result.thread, count: (previous?.count ?? 0) + 1 }));
      window.requestAnimationFrame(() => void flow.fitView(FIT_VIEW));
    } catch (error) {
      toast.error("Auto-layout failed", { description: error instanceof Error ? error.message : String(error) });
    }
  }, [flow, store]);

  const copySelection = useCallback((): string | null => {
    const { document: current, selection } = store.getState();
    const fragment = copyFragment(current, new Set(selection.nodes));
    if (fragment === null) return null;
    toast.success(`Copied ${fragment.nodes.length} node${fragment.nodes.length === 1 ? "" : "s"} as spec JSON`, { id: "copied" });
    return JSON.stringify(fragment, null, 2);
  }, [store]);

  const pasteText = useCallback(
    (text: string) => {
      if (store.getState().readOnly) return;
      const parsed = parseFragment(text);
      if (!parsed.ok) {
        toast.error("Nothing pasted", { description: parsed.message, id: "paste-refused" });
        return;
      }
      store.getState().paste(parsed.fragment, { at: centreOf() });
    },
    [centreOf, store],
  );

  const duplicate = useCallback(() => {
    const { document: current, selection, paste, readOnly: locked } = store.getState();
    const fragment = copyFragment(current, new Set(selection.nodes));
    if (fragment === null || locked) return;
    paste(fragment, { offset: { x: 32, y: 32 } });
  }, [store]);

  const deleteSelection = useCallback(() => {
    const { selection, deleteElements } = store.getState();
    deleteElements(selection.nodes, selection.edges);
  }, [store]);

  const save = useCallback(() => {
    if (store.getState().readOnly || saving.saving) return;
    void saving.save();
  }, [saving, store]);

  const reloadLatest = useCallback(async () => {
    setConflictBusy(true);
    try {
      const latest = await client.workflows.get.query({ workflowId: workflow.id });
      const next = documentOf(latest.workflow.name, latest.head);
      store.getState().replaceDocument(next, { resetHistory: true });
      saving.setBase({ revisionId: latest.head?.id ?? null, number: latest.head?.number ?? null, fingerprint: fingerprintOf(next) });
      saving.dismissConflict();
      void queryClient.invalidateQueries({ queryKey: trpc.workflows.listRevisions.queryKey({ workflowId: workflow.id }) });
      toast.success(latest.head === null ? "Reloaded" : `Reloaded revision ${latest.head.number}`);
    } catch (error) {
      toast.error("Could not reload", { description: error instanceof Error ? error.message : String(error) });
    } finally {
      setConflictBusy(false);
    }
  }, [client, queryClient, saving, store, trpc, workflow.id]);

  const saveAsCopy = useCallback(async () => {
    setConflictBusy(true);
    try {
      const current = store.getState().document;
      const created = await client.workflows.create.mutate({ name: `${workflow.name} (copy)`, spec: toSpec(current), layout: toLayout(current) });
      saving.dismissConflict();
      saving.setBase({ ...saving.base, fingerprint: fingerprintOf(current) });
      toast.success(`Saved as “${created.workflow.name}”`);
      router.push(`/workflows/${created.workflow.id}`);
    } catch (error) {
      const data = (error as { data?: { problems?: Problem[] } }).data;
      toast.error("Could not save a copy", { description: data?.problems !== undefined ? `${data.problems.length} problem(s) in the workflow` : error instanceof Error ? error.message : String(error) });
    } finally {
      setConflictBusy(false);
    }
  }, [client, router, saving, store, workflow.name]);

  const history = store.temporal.getState;
  const commands = {
    save,
    run: extras.openRun,
    undo: () => history().undo(),
    redo: () => history().redo(),
    copy: copySelection,
    cut: () => {
      const text = copySelection();
      if (text !== null) deleteSelection();
      return text;
    },
    paste: pasteText,
    duplicate,
    autoLayout: () => void runAutoLayout(),
    fitView: () => void flow.fitView(FIT_VIEW),
    openPalette: () => setPaletteOpen(true),
    openHelp: () => setHelpOpen(true),
  };
  useEditorShortcuts(store, commands);

  const actions: PaletteAction[] = [
    { id: "save", label: "Save as a new revision", icon: Save, hint: "Ctrl S", disabled: readOnly, run: save },
    { id: "run", label: "Run this workflow", icon: Play, hint: "Ctrl ⏎", run: extras.openRun },
    { id: "undo", label: "Undo", icon: Undo2, disabled: !canUndo || readOnly, run: commands.undo },
    { id: "redo", label: "Redo", icon: Redo2, disabled: !canRedo || readOnly, run: commands.redo },
    { id: "layout", label: "Auto-layout (ELK)", icon: LayoutGrid, hint: "⇧ L", disabled: readOnly, run: commands.autoLayout },
    { id: "fit", label: "Fit the view", icon: Maximize, hint: "⇧ 1", run: commands.fitView },
    { id: "duplicate", label: "Duplicate selected nodes", icon: Copy, hint: "Ctrl D", disabled: readOnly, run: duplicate },
    { id: "delete", label: "Delete selection", icon: Trash2, disabled: readOnly, run: deleteSelection },
    { id: "history", label: "Revision history", icon: History, run: extras.openHistory },
    { id: "diff", label: "Compare two revisions", icon: GitCompare, run: extras.openHistory },
    { id: "export", label: "Export spec + layout (JSON)", icon: Download, run: () => extras.exportDocument(workflow.name, store.getState().document) },
    { id: "import", label: "Import spec + layout (JSON)", icon: Upload, disabled: readOnly, run: extras.openImport },
    { id: "shortcuts", label: "Keyboard shortcuts", icon: Keyboard, hint: "?", run: () => setHelpOpen(true) },
  ];

  const panelClass = (side: "left" | "right") =>
    mobilePanel === side
      ? `absolute inset-y-0 ${side === "left" ? "left-0 border-r" : "right-0 border-l"} z-30 flex w-[min(88vw,360px)] shadow-xl`
      : "hidden md:flex";

  return (
    <div
      ref={root}
      className="flex h-[calc(100dvh-var(--header-height))] min-h-0 flex-col bg-canvas"
      style={height === null ? undefined : { height }}
      data-testid="workflow-editor" data-workflow-id={workflow.id} data-revision-id={saving.base.revisionId ?? ""} data-dirty={saving.dirty} data-layout-ms={lastLayout?.ms} data-layout-thread={lastLayout?.thread} data-layout-count={lastLayout?.count ?? 0} data-layout-warm={layoutWarm} data-open-layout={openLayout}>
      <EditorToolbar
        workflowName={workflow.name}
        revisionLabel={extras.revisionLabel ?? (saving.base.number === null ? "not saved yet" : `revision ${saving.base.number}`)}
        dirty={saving.dirty}
        readOnly={readOnly}
        saving={saving.saving}
        canUndo={canUndo}
        canRedo={canRedo}
        onUndo={commands.undo}
        onRedo={commands.redo}
        onSave={save}
        onRun={extras.openRun}
        onAutoLayout={commands.autoLayout}
        onPalette={commands.openPalette}
        onHelp={commands.openHelp}
        onHistory={extras.openHistory}
        onExport={() => extras.exportDocument(workflow.name, store.getState().document)}
        onImport={extras.openImport}
        onToggleLeft={() => setMobilePanel((open) => (open === "left" ? null : "left"))}
        onToggleRight={() => setMobilePanel((open) => (open === "right" ? null : "right"))}
        banner={extras.banner}
      />
      <div className="relative flex min-h-0 flex-1">
        <aside id="canvas-palette" aria-label="Nodes" className={`${panelClass("left")} min-h-0 shrink-0 flex-col border-line bg-canvas md:border-r`} style={mobilePanel === "left" ? undefined : { width: leftSize }}>
          <NodePalette onAdd={addAtCentre} disabled={readOnly} />
        </aside>
        <div className="hidden md:block">
          <ResizeHandle size={leftSize} onResize={setLeftSize} limits={LEFT_LIMITS} panelSide="left" label="Resize the node palette" controls="canvas-palette" />
        </div>
        <div className="flex min-w-0 flex-1 flex-col">
          <div ref={canvasArea} className="relative min-h-0 flex-1" onPointerDown={() => setMobilePanel(null)}>
            <CanvasFlow decorations={decorations} />
            <EditorExtras.Overlay extras={extras} />
          </div>
          <ResizeHandle size={bottomSize} onResize={setBottomSize} limits={BOTTOM_LIMITS} panelSide="bottom" label="Resize the problems list" controls="canvas-problems" />
          <section id="canvas-problems" aria-label="Problems" className="shrink-0 border-t border-line bg-surface" style={{ height: bottomSize }}>
            <ProblemsPanel problems={problems.all} pending={validation.pending} error={validation.error} onReveal={revealProblem} />
          </section>
        </div>
        <div className="hidden md:block">
          <ResizeHandle size={rightSize} onResize={setRightSize} limits={RIGHT_LIMITS} panelSide="right" label="Resize the properties panel" controls="canvas-properties" />
        </div>
        <aside id="canvas-properties" aria-label="Properties" className={`${panelClass("right")} nokey min-h-0 shrink-0 flex-col border-line bg-surface md:border-l`} style={mobilePanel === "right" ? undefined : { width: rightSize }}>
          <div className="min-h-0 flex-1 overflow-y-auto p-4">
            <PropertiesPanel options={extras.pickerOptions} problems={problems} onDuplicate={duplicate} onDelete={deleteSelection} />
          </div>
        </aside>
      </div>
      <CommandPalette open={paletteOpen} onClose={() => setPaletteOpen(false)} nodes={document.nodes} actions={actions} canAdd={!readOnly} onAdd={addAtCentre} onJump={reveal} />
      <ShortcutHelpDialog open={helpOpen} onClose={() => setHelpOpen(false)} />
      <SaveConflictDialog open={saving.conflict} busy={conflictBusy} onReload={() => void reloadLatest()} onSaveCopy={() => void saveAsCopy()} onClose={saving.dismissConflict} />
      <EditorExtras.Dialogs extras={extras} />
      <LeaveDialog open={leavePrompt.asking} onStay={leavePrompt.stay} onLeave={leavePrompt.leave} />
    </div>
  );
}
