/**
 * The run graph as nodes and edges to draw (no React, no layout): sessions, with
 * - agent prompt sessions folded into the agent turn they feed (a `leaf_system` or empty root whose only children
 *   are that agent's loops), unless asked to show them;
 * - in a graph too large to read whole (more than `COLLAPSE_CHAINS_ABOVE` drawn sessions), long linear chains
 *   collapsed into one expandable node (unless expanded: selecting a session inside one expands it, see
 *   run-view.tsx); a small graph draws every session, since its shape is the point; in a very large graph a chain
 *   also swallows the closed fork/merge diamonds on its way (see linear-stretches.ts);
 * - the path from the root to every failure marked (sessions with failed tool results, and the step the run
 *   failed at, drawn as its own node after its input sessions);
 * - the steps that run now or next drawn as pending nodes after their input sessions.
 * Sizes are fixed per node kind so the layout needs no measuring.
 */
import { lineageEdgeKind, type LineageEdgeKind } from "../ui/lineage-style";
import type { GraphSessionData } from "../run-state/live-graph";
import { linearStretches } from "./linear-stretches";

/** Pixel sizes of the node kinds (the layout and the node components agree on them). */
export const NODE_SIZES = {
  session: { width: 232, height: 60 },
  chain: { width: 232, height: 60 },
  pending: { width: 200, height: 44 },
  failure: { width: 232, height: 60 },
} as const;

/**
 * Graphs with more drawn sessions than this collapse their long chains. Up to it every session is its own node: the
 * graph is framed whole (session-graph.tsx) and a chain folded away would only hide what the person came to see.
 */
export const COLLAPSE_CHAINS_ABOVE = 40;

/** Graphs with more drawn sessions than this fold closed fork/merge diamonds into the chains around them. */
export const ABSORB_FORKS_ABOVE = 200;

/**
 * A node with at least this many drawn lineage children sends them along one shared trunk (graph-edge.tsx): a
 * 400-thread fan-out is one line with a branch to each thread, not a band of 400 overlapping curves.
 */
export const BUNDLE_FAN_OUT = 3;

/** A step that runs now, waits, or is queued, after the given sessions. */
export interface PendingNode {
  nodeId: string;
  inputs: readonly string[];
  status: "running" | "queued" | "waiting";
}

/** Where the run failed outside any session (a step that failed after its retries). */
export interface FailureNode {
  nodeId: string | null;
  code: string;
  message: string;
  inputs: readonly string[];
}

/** What to project and how. */
export interface ProjectionInput {
  sessions: readonly GraphSessionData[];
  expandedChains?: ReadonlySet<string>;
  showPromptSessions?: boolean;
  /** The chain holding this session stays expanded (the run view opens chains through `expandedChains` instead). */
  selectedSessionId?: string | null;
  pending?: readonly PendingNode[];
  failure?: FailureNode | null;
  /** Chains of at least this many sessions collapse (default 4; sessions inside absorbed forks do not count). */
  minChainLength?: number;
  /** Only graphs with more drawn sessions than this collapse chains (default `COLLAPSE_CHAINS_ABOVE`). */
  collapseChainsAbove?: number;
  /** Above this many drawn sessions, closed fork/merge diamonds join the chains around them (default 200). */
  absorbForksAbove?: number;
}

/** A session node. */
export interface SessionNodeData {
  kind: "session";
  session: GraphSessionData;
  failed: boolean;
  onFailurePath: boolean;
  /** The folded agent prompt session feeding this turn, if any. */
  promptSessionId: string | null;
}

/** A collapsed chain of sessions. */
export interface ChainNodeData {
  kind: "chain";
  chainId: string;
  /** Every session of the chain in order, the branches of its absorbed forks included. */
  sessions: readonly GraphSessionData[];
  /** How many closed fork/merge diamonds the chain absorbed. */
  forks: number;
  ownTokens: number;
  toolErrors: number;
  failed: boolean;
  onFailurePath: boolean;
}

/** A step running, waiting or queued. */
export interface PendingNodeData {
  kind: "pending";
  nodeId: string;
  status: PendingNode["status"];
}

/** The step the run failed at. */
export interface FailureNodeData {
  kind: "failure";
  nodeId: string | null;
  code: string;
  message: string;
}

/** Data of any projected node. */
export type ProjectedNodeData = SessionNodeData | ChainNodeData | PendingNodeData | FailureNodeData;

/** A node to draw. */
export interface ProjectedNode {
  id: string;
  width: number;
  height: number;
  data: ProjectedNodeData;
}

/** An edge to draw: a lineage edge (by the child's kind), or the edge into a pending or failure node. */
export interface ProjectedEdge {
  id: string;
  source: string;
  target: string;
  kind: LineageEdgeKind | "pending" | "failure";
  onFailurePath: boolean;
  /** The source fans out to BUNDLE_FAN_OUT or more nodes: the edge leaves along the source's shared trunk. */
  bundled: boolean;
}

/** The projection. */
export interface FlowProjection {
  nodes: ProjectedNode[];
  edges: ProjectedEdge[];
  /** The drawn node that shows each session (itself, its chain, or the turn its folded prompt feeds). */
  nodeOfSession: ReadonlyMap<string, string>;
  /** Sessions with failed tool results, in graph order. */
  failingSessionIds: readonly string[];
  /** Failing sessions and all their ancestors. */
  failurePath: ReadonlySet<string>;
  /** Collapsible chains (collapsed or not) by chain id: their sessions in order. */
  chains: ReadonlyMap<string, readonly string[]>;
}

/** Chain ids are the first session's id with a prefix. */
export function chainIdOf(firstSessionId: string): string {
  return `chain:${firstSessionId}`;
}

/**
 * Agent prompt sessions: roots (`leaf_system`, or empty for an agent without instructions) whose children are all
 * agent loops fed by them as a non-first parent.
 */
function promptSessions(sessions: readonly GraphSessionData[], children: ReadonlyMap<string, GraphSessionData[]>): Map<string, string> {
  const folded = new Map<string, string>();
  for (const session of sessions) {
    // An agent's own root: its instructions (`leaf_system`), or an empty session when it has none.
    if (session.lineage.parent_session_ids.length > 0 || (session.lineage.lineage_kind !== "leaf_system" && session.chunkCount > 0)) continue;
    const fed = children.get(session.id) ?? [];
    const first = fed[0];
    if (first === undefined) continue;
    const all = fed.every((child) => child.lineage.lineage_kind === "op_session_loop" && child.lineage.parent_session_ids.indexOf(session.id) > 0);
    if (all) folded.set(session.id, first.id);
  }
  return folded;
}

function ancestorsOf(ids: Iterable<string>, byId: ReadonlyMap<string, GraphSessionData>): Set<string> {
  const seen = new Set<string>();
  const stack = [...ids].filter((id) => byId.has(id));
  for (const id of stack) seen.add(id);
  for (let current = stack.pop(); current !== undefined; current = stack.pop()) {
    for (const parent of byId.get(current)?.lineage.parent_session_ids ?? []) {
      if (seen.has(parent) || !byId.has(parent)) continue;
      seen.add(parent);
      stack.push(parent);
    }
  }
  return seen;
}

/** Projects the run graph (sessions parents first) into nodes and edges. */
export function toFlowGraph(input: ProjectionInput): FlowProjection {
  const { sessions } = input;
  const expanded = input.expandedChains ?? new Set<string>();
  const minChain = Math.max(2, input.minChainLength ?? 4);
  const byId = new Map(sessions.map((session) => [session.id, session]));
  const children = new Map<string, GraphSessionData[]>();
  for (const session of sessions) {
    for (const parent of new Set(session.lineage.parent_session_ids)) {
      if (!byId.has(parent)) continue;
      const list = children.get(parent);
      if (list === undefined) children.set(parent, [session]);
      else list.push(session);
    }
  }
  const folded = input.showPromptSessions === true ? new Map<string, string>() : promptSessions(sessions, children);
  const promptOf = new Map<string, string>();
  for (const prompt of folded.keys()) for (const child of children.get(prompt) ?? []) if (!promptOf.has(child.id)) promptOf.set(child.id, prompt);
  const visible = sessions.filter((session) => !folded.has(session.id));
  // Drawn edges both ways, computed once (each parent once, folded prompts left out).
  const parentsOf = new Map<string, string[]>();
  const childrenOf = new Map<string, string[]>();
  for (const session of visible) {
    const parents = [...new Set(session.lineage.parent_session_ids)].filter((parent) => byId.has(parent) && !folded.has(parent));
    parentsOf.set(session.id, parents);
    for (const parent of parents) {
      const list = childrenOf.get(parent);
      if (list === undefined) childrenOf.set(parent, [session.id]);
      else list.push(session.id);
    }
  }
  const visibleParents = (session: GraphSessionData): readonly string[] => parentsOf.get(session.id) ?? [];

  // Failures: sessions whose own chunks hold failed tool results, the failed step's inputs, and every ancestor.
  const failingSessionIds = visible.filter((session) => session.toolErrors !== null || session.status === "failed").map((session) => session.id);
  const failure = input.failure ?? null;
  const failurePath = ancestorsOf([...failingSessionIds, ...(failure?.inputs ?? [])], byId);

  // Long linear stretches (with closed fork/merge diamonds once the graph is large) collapse into one node.
  const chainOf = new Map<string, string>();
  const chains = new Map<string, string[]>();
  const forksOf = new Map<string, number>();
  const collapses = visible.length > (input.collapseChainsAbove ?? COLLAPSE_CHAINS_ABOVE);
  const stretches = collapses
    ? linearStretches(
        { ids: visible.map((session) => session.id), parentsOf: (id) => parentsOf.get(id) ?? [], childrenOf: (id) => childrenOf.get(id) ?? [] },
        { minSpine: minChain, absorbForks: visible.length > (input.absorbForksAbove ?? ABSORB_FORKS_ABOVE) },
      )
    : [];
  for (const stretch of stretches) {
    const chainId = chainIdOf(stretch.spine[0] as string);
    chains.set(chainId, stretch.members);
    forksOf.set(chainId, stretch.forks);
    const holdsSelection = input.selectedSessionId != null && stretch.members.includes(input.selectedSessionId);
    if (expanded.has(chainId) || holdsSelection) continue;
    for (const member of stretch.members) chainOf.set(member, chainId);
  }

  const nodes: ProjectedNode[] = [];
  const nodeOfSession = new Map<string, string>();
  const emittedChains = new Set<string>();
  for (const session of visible) {
    const chainId = chainOf.get(session.id);
    if (chainId === undefined) {
      nodeOfSession.set(session.id, session.id);
      nodes.push({
        id: session.id,
        ...NODE_SIZES.session,
        data: {
          kind: "session",
          session,
          failed: session.toolErrors !== null || session.status === "failed",
          onFailurePath: failurePath.has(session.id),
          promptSessionId: promptOf.get(session.id) ?? null,
        },
      });
      continue;
    }
    nodeOfSession.set(session.id, chainId);
    if (emittedChains.has(chainId)) continue;
    emittedChains.add(chainId);
    const members = (chains.get(chainId) ?? []).map((id) => byId.get(id) as GraphSessionData);
    nodes.push({
      id: chainId,
      ...NODE_SIZES.chain,
      data: {
        kind: "chain",
        chainId,
        sessions: members,
        forks: forksOf.get(chainId) ?? 0,
        ownTokens: members.reduce((sum, member) => sum + (member.ownUsage?.total_tokens ?? 0), 0),
        toolErrors: members.reduce((sum, member) => sum + (member.toolErrors?.count ?? 0), 0),
        failed: members.some((member) => member.toolErrors !== null || member.status === "failed"),
        onFailurePath: members.some((member) => failurePath.has(member.id)),
      },
    });
  }
  for (const [prompt, turn] of folded) nodeOfSession.set(prompt, nodeOfSession.get(turn) ?? turn);

  const edges: ProjectedEdge[] = [];
  const seenEdges = new Set<string>();
  for (const session of visible) {
    const target = nodeOfSession.get(session.id) as string;
    const kind = lineageEdgeKind(session.lineage.lineage_kind);
    for (const parent of visibleParents(session)) {
      const source = nodeOfSession.get(parent) as string;
      if (source === target) continue;
      const id = `${source}->${target}`;
      if (seenEdges.has(id)) continue;
      seenEdges.add(id);
      edges.push({ id, source, target, kind, onFailurePath: failurePath.has(session.id), bundled: false });
    }
  }
  const fanOut = new Map<string, number>();
  for (const edge of edges) fanOut.set(edge.source, (fanOut.get(edge.source) ?? 0) + 1);
  for (const edge of edges) edge.bundled = (fanOut.get(edge.source) ?? 0) >= BUNDLE_FAN_OUT;
  // Bundled edges on a failure path are drawn last (order kept otherwise): where they share a trunk, it shows the
  // failure colour down to the last failing branch instead of alternating colours.
  const last = (edge: ProjectedEdge) => Number(edge.bundled && edge.onFailurePath);
  edges.sort((left, right) => last(left) - last(right));

  const attach = (id: string, inputs: readonly string[], kind: "pending" | "failure"): void => {
    const sources = new Set(inputs.map((input) => nodeOfSession.get(input)).filter((source): source is string => source !== undefined));
    for (const source of sources) edges.push({ id: `${source}->${id}`, source, target: id, kind, onFailurePath: kind === "failure", bundled: false });
  };
  (input.pending ?? []).forEach((step, position) => {
    const id = `pending:${position}`;
    nodes.push({ id, ...NODE_SIZES.pending, data: { kind: "pending", nodeId: step.nodeId, status: step.status } });
    attach(id, step.inputs, "pending");
  });
  if (failure !== null) {
    const id = `failure:${failure.nodeId ?? "run"}`;
    nodes.push({ id, ...NODE_SIZES.failure, data: { kind: "failure", nodeId: failure.nodeId, code: failure.code, message: failure.message } });
    attach(id, failure.inputs, "failure");
  }
  return { nodes, edges, nodeOfSession, failingSessionIds, failurePath, chains };
}
