"use client";
/**
 * The canvas: React Flow over the store. Nodes and edges are projected from the document (flow-projection.ts);
 * every change React Flow reports goes back through a store action, so undo/redo sees each edit once (a drag is
 * recorded when it stops). Wires are checked while dragged (`isValidConnection`) against the spec's port rules;
 * a refused drop says why in a toast. Palette items are dropped here.
 */
import {
  Background,
  BackgroundVariant,
  Controls,
  MarkerType,
  MiniMap,
  ReactFlow,
  useReactFlow,
  useStore,
  type Connection,
  type EdgeChange,
  type IsValidConnection,
  type NodeChange,
  type OnConnectEnd,
} from "@xyflow/react";
import "@xyflow/react/dist/style.css";
import { useCallback, useMemo, useRef, useState, type DragEvent, type FocusEvent } from "react";
import { toast } from "sonner";
import { NodeType } from "../../runtime/workflow-spec/workflow-spec";
import { useIsDark } from "../shell/use-theme";
import { CANVAS_EDGE_TYPES, WireFocusContext } from "./canvas-edge";
import { CANVAS_NODE_TYPES } from "./canvas-nodes";
import { useCanvasStore, useCanvasStoreApi } from "./canvas-store-context";
import { ConnectionHint } from "./connection-hint";
import { verdictFor } from "./connection-rules-client";
import { nodeData, projectEdges, projectNodes, type CanvasFlowEdge, type CanvasFlowNode, type CanvasNodeData, type Decorations, type MeasuredSizes } from "./flow-projection";
import { NODE_CATALOG } from "./node-catalog";
import { FIT_VIEW, openFit } from "./open-view";
import { ZoomVariable } from "./zoom-variable";
import "./canvas.css";

/** The drag-and-drop payload type of palette items. */
export const PALETTE_MIME = "application/x-rath-node-type";

const SNAP: [number, number] = [16, 16];
const DEFAULT_EDGE_OPTIONS = { type: "workflow", markerEnd: { type: MarkerType.ArrowClosed, width: 16, height: 16 } } as const;
// Props React Flow compares by identity (a new array each render re-registers its key listeners): made once.
const DELETE_KEYS = ["Delete", "Backspace"];
const MULTI_SELECT_KEYS = ["Meta", "Control", "Shift"];
const PRO_OPTIONS = { hideAttribution: true };
const MINIMAP_STYLE = { width: 168, height: 112 };
const miniMapColor = (node: CanvasFlowNode) => `color-mix(in oklab, ${NODE_CATALOG[node.type]?.tone ?? "var(--rath-muted)"} 45%, var(--rath-surface))`;

/** Props: what decorates the graph (problems, run status, diff). */
export interface CanvasFlowProps {
  decorations: Decorations;
}

/** The React Flow canvas of the editor. Must be inside a ReactFlowProvider and a CanvasStoreProvider. */
export function CanvasFlow({ decorations }: CanvasFlowProps) {
  const store = useCanvasStoreApi();
  const document = useCanvasStore((state) => state.document);
  const dragging = useCanvasStore((state) => state.dragging);
  const selection = useCanvasStore((state) => state.selection);
  const readOnly = useCanvasStore((state) => state.readOnly);
  const isDark = useIsDark();
  const paneWidth = useStore((state) => state.width);
  const { screenToFlowPosition } = useReactFlow();
  const measured = useRef<MeasuredSizes>(new Map());
  const previous = useRef<Map<string, CanvasFlowNode>>(new Map());
  const [measuredVersion, setMeasuredVersion] = useState(0);
  // Fit the view on open only when there is something to fit: on an empty canvas React Flow would otherwise
  // re-centre the view on the first node dropped, moving the canvas under the user's pointer.
  const [fitOnOpen] = useState(() => store.getState().document.nodes.length > 0);
  // Read when the first view is fitted (once the pane is measured); later edits do not change how it opened.
  const fitViewOptions = useMemo(() => openFit(store.getState().document, paneWidth), [store, paneWidth]);

  const previousData = useRef<Map<string, CanvasNodeData>>(new Map());
  const previousEdges = useRef<Map<string, CanvasFlowEdge>>(new Map());
  const data = useMemo(() => {
    const next = nodeData(document.nodes, document.edges, document.settings, decorations, previousData.current);
    previousData.current = next;
    return next;
  }, [document.nodes, document.edges, document.settings, decorations]);
  const selectedNodes = useMemo(() => new Set(selection.nodes), [selection.nodes]);
  const selectedEdges = useMemo(() => new Set(selection.edges), [selection.edges]);
  const nodes = useMemo(() => {
    void measuredVersion;
    const projected = projectNodes(document.nodes, data, document.positions, dragging, selectedNodes, measured.current, previous.current, !readOnly);
    previous.current = new Map(projected.map((node) => [node.id, node]));
    return projected;
  }, [document.nodes, data, document.positions, dragging, selectedNodes, readOnly, measuredVersion]);
  const edges = useMemo(() => {
    const projected = projectEdges(document.nodes, document.edges, selectedEdges, decorations, previousEdges.current);
    previousEdges.current = new Map(projected.map((edge) => [edge.id, edge]));
    return projected;
  }, [document.nodes, document.edges, selectedEdges, decorations]);

  const onNodesChange = useCallback(
    (changes: NodeChange<CanvasFlowNode>[]) => {
      let sized = false;
      const moving: Record<string, { x: number; y: number }> = {};
      let dragEnded = false;
      let selected: Set<string> | null = null;
      for (const change of changes) {
        if (change.type === "dimensions" && change.dimensions !== undefined) {
          const before = measured.current.get(change.id);
          if (before?.width !== change.dimensions.width || before?.height !== change.dimensions.height) {
            measured.current.set(change.id, change.dimensions);
            sized = true;
          }
        } else if (change.type === "position") {
          if (change.position !== undefined) moving[change.id] = change.position;
          if (change.dragging === false) dragEnded = true;
        } else if (change.type === "select") {
          selected ??= new Set(store.getState().selection.nodes);
          if (change.selected) selected.add(change.id);
          else selected.delete(change.id);
        }
      }
      if (Object.keys(moving).length > 0) store.getState().dragNodes(moving);
      if (dragEnded) store.getState().endDrag();
      if (selected !== null) store.getState().select({ nodes: [...selected], edges: store.getState().selection.edges });
      if (sized) setMeasuredVersion((version) => version + 1);
    },
    [store],
  );

  const onEdgesChange = useCallback(
    (changes: EdgeChange<CanvasFlowEdge>[]) => {
      let selected: Set<string> | null = null;
      for (const change of changes) {
        if (change.type !== "select") continue;
        selected ??= new Set(store.getState().selection.edges);
        if (change.selected) selected.add(change.id);
        else selected.delete(change.id);
      }
      if (selected !== null) store.getState().select({ nodes: store.getState().selection.nodes, edges: [...selected] });
    },
    [store],
  );

  const isValidConnection = useCallback<IsValidConnection<CanvasFlowEdge>>(
    (connection) => {
      const { document: current } = store.getState();
      return verdictFor(connection, current.nodes, current.edges).ok;
    },
    [store],
  );

  const onConnect = useCallback(
    (connection: Connection) => {
      const { document: current, connect } = store.getState();
      const verdict = verdictFor(connection, current.nodes, current.edges);
      if (!verdict.ok) {
        toast.error("Connection refused", { description: verdict.reason });
        return;
      }
      connect({ source: connection.source, sourcePort: connection.sourceHandle ?? "out", target: connection.target, targetPort: connection.targetHandle ?? "in" });
    },
    [store],
  );

  const onConnectEnd = useCallback<OnConnectEnd>(
    (_event, state) => {
      if (state.isValid !== false || state.toHandle === null || state.toHandle === undefined) return;
      const from = state.fromHandle;
      const to = state.toHandle;
      if (from === null) return;
      const [source, target] = from.type === "source" ? [from, to] : [to, from];
      const { document: current } = store.getState();
      const verdict = verdictFor({ source: source.nodeId, sourceHandle: source.id ?? null, target: target.nodeId, targetHandle: target.id ?? null }, current.nodes, current.edges);
      const reason = verdict.ok ? "an output can only be wired to an input" : verdict.reason;
      toast.error("Connection refused", { description: reason, id: "connection-refused" });
    },
    [store],
  );

  const onDelete = useCallback(
    ({ nodes: deletedNodes, edges: deletedEdges }: { nodes: CanvasFlowNode[]; edges: CanvasFlowEdge[] }) => {
      store.getState().deleteElements(
        deletedNodes.map((node) => node.id),
        deletedEdges.map((edge) => edge.id),
      );
    },
    [store],
  );

  // The wires' focus targets exist while focus is inside the canvas (canvas-edge.tsx): Tab meets the nodes first.
  const [focusInside, setFocusInside] = useState(false);
  const onFocus = useCallback(() => setFocusInside(true), []);
  const onBlur = useCallback((event: FocusEvent<HTMLDivElement>) => {
    if (!(event.relatedTarget instanceof Node) || !event.currentTarget.contains(event.relatedTarget)) setFocusInside(false);
  }, []);

  const onDragOver = useCallback((event: DragEvent) => {
    if (!event.dataTransfer.types.includes(PALETTE_MIME)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = "copy";
  }, []);

  const onDrop = useCallback(
    (event: DragEvent) => {
      const parsed = NodeType.safeParse(event.dataTransfer.getData(PALETTE_MIME));
      if (!parsed.success) return;
      event.preventDefault();
      const point = screenToFlowPosition({ x: event.clientX, y: event.clientY });
      const position = { x: Math.round((point.x - 116) / SNAP[0]) * SNAP[0], y: Math.round((point.y - 30) / SNAP[1]) * SNAP[1] };
      store.getState().addNode(parsed.data, position);
    },
    [screenToFlowPosition, store],
  );

  return (
    <WireFocusContext.Provider value={focusInside}>
      <ReactFlow<CanvasFlowNode, CanvasFlowEdge>
        nodes={nodes}
        edges={edges}
        nodeTypes={CANVAS_NODE_TYPES}
        edgeTypes={CANVAS_EDGE_TYPES}
        defaultEdgeOptions={DEFAULT_EDGE_OPTIONS}
        onNodesChange={onNodesChange}
        onEdgesChange={onEdgesChange}
        onConnect={onConnect}
        onConnectEnd={onConnectEnd}
        isValidConnection={isValidConnection}
        onDelete={onDelete}
        onDragOver={onDragOver}
        onDrop={onDrop}
        onFocus={onFocus}
        onBlur={onBlur}
        nodesConnectable={!readOnly}
        nodesDraggable={!readOnly}
        deleteKeyCode={readOnly ? null : DELETE_KEYS}
        snapToGrid
        snapGrid={SNAP}
        colorMode={isDark ? "dark" : "light"}
        fitView={fitOnOpen}
        fitViewOptions={fitViewOptions}
        minZoom={0.1}
        maxZoom={2}
        onlyRenderVisibleElements={document.nodes.length > 120}
        proOptions={PRO_OPTIONS}
        panOnScroll={false}
        selectionKeyCode="Shift"
        multiSelectionKeyCode={MULTI_SELECT_KEYS}
        className="rath-canvas"
        data-testid="canvas"
      >
        <Background variant={BackgroundVariant.Dots} gap={SNAP[0]} size={1.2} color="var(--rath-line-strong)" />
        <MiniMap
          pannable
          style={MINIMAP_STYLE}
          zoomable
          ariaLabel="Minimap"
          nodeStrokeWidth={2}
          nodeColor={miniMapColor}
          maskColor="color-mix(in oklab, var(--rath-canvas) 70%, transparent)"
          className="!hidden !rounded-lg !border !border-line !bg-surface sm:!block"
        />
        <Controls showInteractive={false} fitViewOptions={FIT_VIEW} className="!rounded-lg !border !border-line !shadow-sm" />
        <ConnectionHint />
        <ZoomVariable />
      </ReactFlow>
    </WireFocusContext.Provider>
  );
}
