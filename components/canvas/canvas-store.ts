/**
 * The editor's state: one zustand store per open workflow, with zundo undo/redo over the document (nodes, edges,
 * positions, name, settings) and nothing else. Selection and the positions of a drag in progress are view state:
 * not recorded, so a drag becomes one undo step when it ends, and selecting never fills the history. Typing in a
 * property field is coalesced: edits of the same field within a second are one step.
 */
import { temporal, type TemporalState } from "zundo";
import { createStore, type StoreApi } from "zustand/vanilla";
import type { NodePosition } from "../../runtime/workflow-spec/workflow-layout";
import type { NodeType, WorkflowEdge, WorkflowNode, WorkflowSettings } from "../../runtime/workflow-spec/workflow-spec";
import { pasteFragment, type ClipboardFragment } from "./canvas-clipboard";
import { edgeIdOf, newNode, nextNodeId, type CanvasDocument } from "./canvas-document";

/** What may change on a node from the properties panel. */
export interface NodePatch {
  label?: string | undefined;
  description?: string | undefined;
  config?: Record<string, unknown>;
}

/** The selected nodes and edges, by id. */
export interface CanvasSelection {
  readonly nodes: readonly string[];
  readonly edges: readonly string[];
}

/** The state and its actions. */
export interface CanvasState {
  /** The workflow being edited: the only part undo/redo records. */
  document: CanvasDocument;
  selection: CanvasSelection;
  /** Positions of nodes being dragged right now (applied over `document.positions`). */
  dragging: Readonly<Record<string, NodePosition>> | null;
  /** A revision opened read-only (history): every edit is refused. */
  readOnly: boolean;

  addNode: (type: NodeType, position: NodePosition) => string;
  /** Positions during a drag: shown, not recorded. */
  dragNodes: (positions: Readonly<Record<string, NodePosition>>) => void;
  /** Ends a drag: the positions become one recorded edit. */
  endDrag: () => void;
  /** Moves nodes as one recorded edit (keyboard nudge, auto-layout). */
  moveNodes: (positions: Readonly<Record<string, NodePosition>>) => void;
  connect: (connection: Omit<WorkflowEdge, "id">) => string | null;
  deleteElements: (nodeIds: readonly string[], edgeIds: readonly string[]) => void;
  updateNode: (nodeId: string, patch: NodePatch, coalesceKey?: string) => void;
  updateDocument: (patch: { name?: string; description?: string | undefined; settings?: WorkflowSettings | undefined }, coalesceKey?: string) => void;
  /** Adds a copied fragment; the new nodes become the selection. */
  paste: (fragment: ClipboardFragment, placement: { offset: NodePosition } | { at: NodePosition }) => string[];
  /** Replaces the whole document (load, import, restore). `resetHistory` starts a new undo history. */
  replaceDocument: (document: CanvasDocument, options?: { resetHistory?: boolean; readOnly?: boolean }) => void;
  select: (selection: CanvasSelection) => void;
}

/** The store with its `temporal` (undo/redo) companion. */
export type CanvasStore = StoreApi<CanvasState> & { temporal: StoreApi<TemporalState<{ document: CanvasDocument }>> };

const COALESCE_MS = 1000;

/** Creates one store for one editor. */
export function createCanvasStore(initial: CanvasDocument): CanvasStore {
  let lastEdit: { key: string; at: number } | null = null;
  const store = createStore<CanvasState>()(
    temporal(
      (set, get, api) => {
        const history = () => (api as unknown as CanvasStore).temporal.getState();
        /** Applies a document change, recorded unless it continues the same coalesced edit. */
        const edit = (next: (document: CanvasDocument) => CanvasDocument | null, coalesceKey?: string, extra: Partial<CanvasState> = {}) => {
          const state = get();
          if (state.readOnly) return;
          const document = next(state.document);
          if (document === null) return;
          const now = Date.now();
          const coalesce = coalesceKey !== undefined && lastEdit !== null && lastEdit.key === coalesceKey && now - lastEdit.at < COALESCE_MS;
          lastEdit = coalesceKey === undefined ? null : { key: coalesceKey, at: now };
          if (coalesce) history().pause();
          set({ document, ...extra });
          if (coalesce) history().resume();
        };
        return {
          document: initial,
          selection: { nodes: [], edges: [] },
          dragging: null,
          readOnly: false,

          addNode: (type, position) => {
            const id = nextNodeId(type, new Set(get().document.nodes.map((node) => node.id)));
            edit(
              (document) => ({ ...document, nodes: [...document.nodes, newNode(type, id)], positions: { ...document.positions, [id]: position } }),
              undefined,
              { selection: { nodes: [id], edges: [] } },
            );
            return id;
          },
          dragNodes: (positions) => {
            if (get().readOnly) return;
            set({ dragging: { ...(get().dragging ?? {}), ...positions } });
          },
          endDrag: () => {
            const dragging = get().dragging;
            if (dragging === null) return;
            const moved = Object.entries(dragging).filter(([id, position]) => {
              const before = get().document.positions[id];
              return before === undefined || before.x !== position.x || before.y !== position.y;
            });
            if (moved.length === 0 || get().readOnly) {
              set({ dragging: null });
              return;
            }
            edit((document) => ({ ...document, positions: { ...document.positions, ...Object.fromEntries(moved) } }), undefined, { dragging: null });
          },
          moveNodes: (positions) => edit((document) => ({ ...document, positions: { ...document.positions, ...positions } })),
          connect: (connection) => {
            const id = edgeIdOf(connection.source, connection.sourcePort, connection.target, connection.targetPort);
            if (get().document.edges.some((edge) => edge.id === id)) return null;
            edit((document) => ({ ...document, edges: [...document.edges, { id, ...connection }] }));
            return get().readOnly ? null : id;
          },
          deleteElements: (nodeIds, edgeIds) => {
            const nodes = new Set(nodeIds);
            const edges = new Set(edgeIds);
            edit((document) => {
              const keptNodes = document.nodes.filter((node) => !nodes.has(node.id));
              const keptEdges = document.edges.filter((edge) => !edges.has(edge.id) && !nodes.has(edge.source) && !nodes.has(edge.target));
              if (keptNodes.length === document.nodes.length && keptEdges.length === document.edges.length) return null;
              const positions = { ...document.positions };
              for (const id of nodes) delete positions[id];
              return { ...document, nodes: keptNodes, edges: keptEdges, positions };
            }, undefined, { selection: { nodes: [], edges: [] } });
          },
          updateNode: (nodeId, patch, coalesceKey) =>
            edit((document) => {
              const index = document.nodes.findIndex((node) => node.id === nodeId);
              const current = document.nodes[index];
              if (current === undefined) return null;
              const updated = { ...current } as Record<string, unknown>;
              for (const key of ["label", "description"] as const) {
                if (!(key in patch)) continue;
                const value = patch[key];
                if (value === undefined || value === "") delete updated[key];
                else updated[key] = value;
              }
              if (patch.config !== undefined) updated.config = patch.config;
              const nodes = [...document.nodes];
              nodes[index] = updated as unknown as WorkflowNode;
              return { ...document, nodes };
            }, coalesceKey),
          updateDocument: (patch, coalesceKey) =>
            edit((document) => {
              const next: Record<string, unknown> = { ...document };
              for (const [key, value] of Object.entries(patch)) {
                if (value === undefined) delete next[key];
                else next[key] = value;
              }
              return next as unknown as CanvasDocument;
            }, coalesceKey),
          paste: (fragment, placement) => {
            let added: string[] = [];
            edit((document) => {
              const result = pasteFragment(document, fragment, placement);
              added = result.added;
              return result.document;
            });
            if (added.length > 0) set({ selection: { nodes: added, edges: [] } });
            return added;
          },
          replaceDocument: (document, options = {}) => {
            lastEdit = null;
            if (options.resetHistory) history().pause();
            set({ document, dragging: null, selection: { nodes: [], edges: [] }, readOnly: options.readOnly ?? false });
            if (options.resetHistory) {
              history().resume();
              history().clear();
            }
          },
          select: (selection) => set({ selection }),
        };
      },
      {
        partialize: (state) => ({ document: state.document }),
        equality: (past, current) => past.document === current.document,
        limit: 200,
      },
    ),
  );
  return store;
}
