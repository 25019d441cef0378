"use client";
/**
 * The run's session graph drawn with xyflow: the projection of `toFlowGraph` laid out by ELK in a web worker
 * (a provisional layout first), edges styled by lineage kind, only visible elements rendered (thousands of sessions
 * stay smooth), the selected node kept in view. Clicking a session selects it; clicking a chain expands it;
 * hovering highlights the session (and its timeline step).
 */
import "@xyflow/react/dist/style.css";
import { Background, Controls, ReactFlow, ReactFlowProvider, useUpdateNodeInternals, type NodeMouseHandler } from "@xyflow/react";
import { useCallback, useEffect, useMemo, useRef } from "react";
import { useGraphLayout } from "../graph-layout/use-graph-layout";
import { layoutKey } from "../graph-layout/layout-cache";
import type { LayoutGraphInput } from "../graph-layout/layout-types";
import { Layers, LocateFixed } from "lucide-react";
import { useIsDark } from "../shell/use-theme";
import { Button } from "../ui/button";
import { GRAPH_EDGE_TYPES, type LineageFlowEdge } from "./graph-edge";
import { GraphLegend } from "./graph-legend";
import { GraphMinimap } from "./graph-minimap";
import { useGraphFraming } from "./use-graph-framing";
import { GRAPH_NODE_TYPES, GraphFlowDirection, type GraphFlowNode } from "./graph-nodes";
import { directionFor, graphExtents } from "./present-direction";
import { flowEdges, flowNodes, sameItems } from "./flow-elements";
import { usePaneSize } from "./use-pane-size";
import type { FlowProjection } from "./to-flow-graph";

/** Props of the graph. */
export interface SessionGraphProps {
  projection: FlowProjection;
  /** Canvas node labels by node id (from the run's revision). */
  labels: Readonly<Record<string, string>>;
  selectedSessionId: string | null;
  hoveredSessions: ReadonlySet<string>;
  onSelectSession: (sessionId: string) => void;
  onToggleChain: (chainId: string) => void;
  onHover: (sessionIds: readonly string[]) => void;
  onFailure: () => void;
  /**
   * Where a graph too large to show whole at a readable zoom opens: this session's node (the selection the URL
   * asked for, or the first failure); the root when null.
   */
  focusSessionId?: string | null;
  /** How many chains are open (a "Collapse chains" button shows when some are). */
  expandedChains?: number;
  onCollapseChains?: () => void;
  /** Presenting (the demo replay): always framed whole, never scrolled to the selection. */
  present?: boolean;
  /**
   * The session a live run's view follows (its newest, while the person has selected nothing); null when nothing
   * is followed (the run ended, or the person chose a session).
   */
  followSessionId?: string | null;
  /** Whether the run is live: a "Follow" button shows when the person stopped the view following it (by panning,
   * zooming or choosing a session; after the run ended, only by panning or zooming). */
  live?: boolean;
  /** "Follow": the person wants the view to follow the newest session again (their selection is let go). */
  onFollow?: () => void;
}

const LAYOUT_OPTIONS = { direction: "RIGHT", nodeSpacing: 20, layerSpacing: 56 } as const;
/** A constant: xyflow copies a changed prop into its store (and redraws what reads it) after every render. */
const PRO_OPTIONS = { hideAttribution: true };
/** A pane narrower than this (a phone's, not the ~500 px one beside the panels at 1280) starts with the legend folded. */
const NARROW_PANE = 420;
/**
 * Graphs with more drawn nodes than this render only the nodes in view. A small graph renders them all: it is framed
 * whole anyway, and culling unmounted the running step's node whenever a live step's new layout moved it past the
 * old frame, to mount it again (its spinner restarted) when the frame followed — once per step for the first 40.
 */
const CULL_ABOVE = 120;
/** Larger graphs get the quick layered layout (see use-graph-layout.ts). */
const MAX_ELK_NODES = 150;
function sessionsOfNode(node: GraphFlowNode): string[] {
  if (node.type === "session") return [node.data.session.id];
  if (node.type === "chain") return node.data.sessions.map((session) => session.id);
  return [];
}

function GraphCanvas({ projection, labels, selectedSessionId, hoveredSessions, onSelectSession, onToggleChain, onHover, onFailure, focusSessionId = null, expandedChains = 0, onCollapseChains, present = false, followSessionId = null, live = false, onFollow }: SessionGraphProps) {
  // The same object while the shape is the same: a live update that only grows chunks or usage (most of them)
  // lays nothing out again, and neither does the direction's estimate.
  const shape = useRef<{ key: string; graph: LayoutGraphInput } | null>(null);
  const layoutInput = useMemo<LayoutGraphInput>(() => {
    const graph = {
      nodes: projection.nodes.map((node) => ({ id: node.id, width: node.width, height: node.height })),
      edges: projection.edges.map((edge) => ({ id: edge.id, source: edge.source, target: edge.target })),
    };
    const key = layoutKey(graph);
    if (shape.current?.key === key) return shape.current.graph;
    shape.current = { key, graph };
    return graph;
  }, [projection]);
  // Time flows left to right (the run view always; issue 10). A presented graph (the demo replay, framed whole for an
  // audience) flows down when that shows it clearly larger in its pane (present-direction.ts); a resize only
  // compares the two sizes estimated for this shape.
  const container = useRef<HTMLDivElement>(null);
  const paneSize = usePaneSize(container);
  const extents = useMemo(() => (present ? graphExtents(layoutInput, LAYOUT_OPTIONS) : null), [layoutInput, present]);
  const direction = paneSize === null ? "RIGHT" : directionFor(extents, paneSize.width, paneSize.height);
  const layoutOptions = useMemo(() => ({ ...LAYOUT_OPTIONS, direction }), [direction]);
  const { layout, source } = useGraphLayout(layoutInput, layoutOptions, { maxElkNodes: MAX_ELK_NODES });
  const selectedNodeId = selectedSessionId === null ? null : (projection.nodeOfSession.get(selectedSessionId) ?? null);
  const highlightedNodes = useMemo(() => {
    const ids = new Set<string>();
    for (const sessionId of hoveredSessions) {
      const nodeId = projection.nodeOfSession.get(sessionId);
      if (nodeId !== undefined) ids.add(nodeId);
    }
    return ids;
  }, [hoveredSessions, projection]);

  // Nodes and edges whose position and data did not change keep their object (flow-elements.ts), and when none
  // changed the list is the same too: xyflow then neither syncs its store again nor redraws, and a live run that grows
  // one session, or a hover, redraws only what changed.
  const previousNodes = useRef(new Map<string, GraphFlowNode>());
  const nodeList = useRef<GraphFlowNode[]>([]);
  const nodes = useMemo<GraphFlowNode[]>(() => {
    const list = flowNodes({ projection, positions: layout.positions, labels, selectedNodeId, highlightedNodes }, previousNodes.current);
    if (sameItems(list, nodeList.current)) return nodeList.current;
    nodeList.current = list;
    return list;
  }, [projection, layout, labels, selectedNodeId, highlightedNodes]);
  const previousEdges = useRef(new Map<string, LineageFlowEdge>());
  const edgeList = useRef<LineageFlowEdge[]>([]);
  const edges = useMemo<LineageFlowEdge[]>(() => {
    const list = flowEdges(projection, highlightedNodes, previousEdges.current);
    if (sameItems(list, edgeList.current)) return edgeList.current;
    edgeList.current = list;
    return list;
  }, [projection, highlightedNodes]);

  const focusNodeId = focusSessionId === null ? null : (projection.nodeOfSession.get(focusSessionId) ?? null);
  // A run waiting at a gate (an approval) is followed at the waiting step, the node the person has to act on.
  const waitingNodeId = projection.nodes.find((node) => node.data.kind === "pending" && node.data.status === "waiting")?.id ?? null;
  const followNodeId = followSessionId === null ? null : (waitingNodeId ?? projection.nodeOfSession.get(followSessionId) ?? null);
  const framing = useGraphFraming({ container, paneSize, nodes, edges: projection.edges, source, layout, selectedNodeId, focusNodeId, followNodeId, present });
  // Handles move to the other sides when the direction changes: xyflow measures them again.
  const updateNodeInternals = useUpdateNodeInternals();
  const nodeIds = useRef<string[]>([]);
  nodeIds.current = nodes.map((node) => node.id);
  useEffect(() => {
    updateNodeInternals(nodeIds.current);
  }, [direction, updateNodeInternals]);

  const follow = () => {
    framing.follow();
    onFollow?.();
  };
  const activate = (node: GraphFlowNode): void => {
    if (node.type === "session") onSelectSession(node.data.session.id);
    else if (node.type === "chain") {
      framing.revealAfterOpening(node.data.sessions.map((session) => session.id));
      onToggleChain(node.data.chainId);
    } else if (node.type === "failure") onFailure();
  };
  // xyflow hands its handlers to every node wrapper: a new function per render would redraw every node at every live
  // step. These stay the same and call the newest `activate` / `onHover`.
  const handlers = useRef({ activate, onHover });
  handlers.current = { activate, onHover };
  const onNodeClick = useCallback<NodeMouseHandler<GraphFlowNode>>((_event, node) => handlers.current.activate(node), []);
  const onNodeMouseEnter = useCallback<NodeMouseHandler<GraphFlowNode>>((_event, node) => handlers.current.onHover(sessionsOfNode(node)), []);
  const onNodeMouseLeave = useCallback(() => handlers.current.onHover([]), []);
  const collapseChains = () => {
    framing.reframe();
    onCollapseChains?.();
  };
  const kinds = useMemo(() => new Set(projection.nodes.flatMap((node) => (node.data.kind === "session" ? [node.data.session.lineage.lineage_kind] : []))), [projection]);
  const isDark = useIsDark();

  return (
    // The legend is a strip under the graph's pane, never over its nodes.
    <div className="flex h-full min-h-0 w-full min-w-0 flex-col">
    {/* Enter/Space bubble up from the focusable graph nodes inside; the container itself is not a control. */}
    {/* eslint-disable-next-line jsx-a11y/no-static-element-interactions */}
    <div
      ref={container}
      data-testid="session-graph"
      data-layout={source}
      data-direction={direction}
      data-following={framing.userMoved ? "false" : followNodeId === null ? "none" : "true"}
      data-node-count={nodes.length}
      data-session-count={projection.nodeOfSession.size}
      className="relative min-h-0 w-full min-w-0 flex-1 [contain:strict]"
      onKeyDown={(event) => {
        if (event.key !== "Enter" && event.key !== " ") return;
        const id = (event.target as HTMLElement).closest?.(".react-flow__node")?.getAttribute("data-id");
        const node = id ? nodes.find((entry) => entry.id === id) : undefined;
        if (node === undefined) return;
        event.preventDefault();
        activate(node);
      }}
    >
      <GraphFlowDirection.Provider value={direction}>
      <ReactFlow<GraphFlowNode, LineageFlowEdge>
        nodes={nodes}
        edges={edges}
        nodeTypes={GRAPH_NODE_TYPES}
        edgeTypes={GRAPH_EDGE_TYPES}
        onNodeClick={onNodeClick}
        onNodeMouseEnter={onNodeMouseEnter}
        onNodeMouseLeave={onNodeMouseLeave}
        onMove={framing.onMove}
        onlyRenderVisibleElements={nodes.length > CULL_ABOVE}
        nodesDraggable={false}
        nodesConnectable={false}
        elementsSelectable={false}
        nodesFocusable
        minZoom={0.05}
        maxZoom={2}
        proOptions={PRO_OPTIONS}
        colorMode={isDark ? "dark" : "light"}
      >
        <Background gap={20} size={1} color="var(--rath-line)" />
        <Controls showInteractive={false} position="bottom-right" />
        {nodes.length > 12 ? <GraphMinimap nodes={nodes} layout={layout} /> : null}
      </ReactFlow>
      </GraphFlowDirection.Provider>
      {expandedChains > 0 && onCollapseChains !== undefined ? (
        <div className="absolute top-2 left-2">
          <Button size="sm" variant="secondary" icon={Layers} data-testid="collapse-chains" onClick={collapseChains}>
            Collapse {expandedChains === 1 ? "chain" : `${expandedChains} chains`}
          </Button>
        </div>
      ) : null}
      {!present && (live || followSessionId !== null) && (framing.userMoved || followSessionId === null) ? (
        <div className="absolute top-2 right-2">
          <Button size="sm" variant="secondary" icon={LocateFixed} data-testid="graph-follow" onClick={follow} title="Follow the newest session as the run grows">
            Follow
          </Button>
        </div>
      ) : null}
    </div>
    <GraphLegend kinds={kinds} narrow={paneSize !== null && paneSize.width < NARROW_PANE} />
    </div>
  );
}

/** The graph with its own xyflow provider. */
export function SessionGraph(props: SessionGraphProps) {
  return (
    <ReactFlowProvider>
      <GraphCanvas {...props} />
    </ReactFlowProvider>
  );
}
