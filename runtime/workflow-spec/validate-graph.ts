import { portMismatchReason } from "./connection-rules";
import { adjacency, cyclicComponents, reachableFrom } from "./graph-analysis";
import { inputPort, isSessionNode, NODE_PORTS, outputPort } from "./ports";
import type { Problem } from "./problems";
import type { NodeSkeleton } from "./validate-schema";
import type { WorkflowEdge } from "./workflow-spec";

/** An edge whose ends and ports exist and agree in type. */
export interface WiredEdge {
  readonly edge: WorkflowEdge;
  readonly index: number;
  readonly portType: "session" | "tool" | "memory";
}

function list(names: readonly string[]): string {
  return names.length === 0 ? "none" : names.join(", ");
}

/** Duplicate node and edge ids; returns the first node of each id. */
export function checkIds(nodes: readonly NodeSkeleton[], edges: readonly { edge: WorkflowEdge; index: number }[], problems: Problem[]): Map<string, NodeSkeleton> {
  const byId = new Map<string, NodeSkeleton>();
  for (const node of nodes) {
    const first = byId.get(node.id);
    if (first) {
      problems.push({
        code: "duplicate_node_id",
        message: `node id '${node.id}' is used twice: expected unique ids, found nodes[${first.index}] and nodes[${node.index}]`,
        nodeId: node.id,
        path: ["nodes", node.index, "id"],
      });
      continue;
    }
    byId.set(node.id, node);
  }
  const edgeIndex = new Map<string, number>();
  for (const { edge, index } of edges) {
    const first = edgeIndex.get(edge.id);
    if (first !== undefined) {
      problems.push({
        code: "duplicate_edge_id",
        message: `edge id '${edge.id}' is used twice: expected unique ids, found edges[${first}] and edges[${index}]`,
        edgeId: edge.id,
        path: ["edges", index, "id"],
      });
      continue;
    }
    edgeIndex.set(edge.id, index);
  }
  return byId;
}

/** Dangling ends, unknown ports and port type mismatches; returns the edges that are wired correctly. */
export function checkEdges(
  byId: ReadonlyMap<string, NodeSkeleton>,
  edges: readonly { edge: WorkflowEdge; index: number }[],
  problems: Problem[],
): WiredEdge[] {
  const wired: WiredEdge[] = [];
  for (const { edge, index } of edges) {
    const source = byId.get(edge.source);
    const target = byId.get(edge.target);
    const known = list([...byId.keys()]);
    if (!source) {
      problems.push({ code: "dangling_edge", message: `edge '${edge.id}' starts at node '${edge.source}', which does not exist; nodes: ${known}`, edgeId: edge.id, path: ["edges", index, "source"] });
    }
    if (!target) {
      problems.push({ code: "dangling_edge", message: `edge '${edge.id}' ends at node '${edge.target}', which does not exist; nodes: ${known}`, edgeId: edge.id, path: ["edges", index, "target"] });
    }
    if (!source || !target) continue;
    const from = outputPort(source.type, edge.sourcePort);
    const to = inputPort(target.type, edge.targetPort);
    if (!from) {
      const names = list(NODE_PORTS[source.type].outputs.map((port) => port.name));
      problems.push({ code: "unknown_port", message: `edge '${edge.id}': ${source.type} node '${source.id}' has no output port '${edge.sourcePort}'; expected one of: ${names}`, edgeId: edge.id, nodeId: source.id, path: ["edges", index, "sourcePort"] });
    }
    if (!to) {
      const names = list(NODE_PORTS[target.type].inputs.map((port) => port.name));
      problems.push({ code: "unknown_port", message: `edge '${edge.id}': ${target.type} node '${target.id}' has no input port '${edge.targetPort}'; expected one of: ${names}`, edgeId: edge.id, nodeId: target.id, path: ["edges", index, "targetPort"] });
    }
    if (!from || !to) continue;
    const mismatch = portMismatchReason(from, to);
    if (mismatch !== null) {
      problems.push({
        code: "port_type_mismatch",
        message: `edge '${edge.id}' joins ${source.type} '${source.id}'.${from.name} to ${target.type} '${target.id}'.${to.name}: ${mismatch}`,
        edgeId: edge.id,
        nodeId: target.id,
        path: ["edges", index],
      });
      continue;
    }
    wired.push({ edge, index, portType: from.type });
  }
  return wired;
}

/** Ports that allow one edge but have more. */
export function checkPortCapacity(byId: ReadonlyMap<string, NodeSkeleton>, wired: readonly WiredEdge[], problems: Problem[]): void {
  const seen = new Map<string, WiredEdge>();
  for (const item of wired) {
    const { edge } = item;
    const sides = [
      { key: `out:${edge.source}:${edge.sourcePort}`, node: edge.source, port: outputPort((byId.get(edge.source) as NodeSkeleton).type, edge.sourcePort) },
      { key: `in:${edge.target}:${edge.targetPort}`, node: edge.target, port: inputPort((byId.get(edge.target) as NodeSkeleton).type, edge.targetPort) },
    ];
    for (const side of sides) {
      if (!side.port || side.port.multiple) continue;
      const first = seen.get(side.key);
      if (!first) {
        seen.set(side.key, item);
        continue;
      }
      const type = (byId.get(side.node) as NodeSkeleton).type;
      const hint = side.port.type === "session" && side.key.startsWith("out:") ? " (use a Fork node to branch)" : "";
      problems.push({
        code: "too_many_edges",
        message: `${type} '${side.node}' port '${side.port.name}' takes one edge; found '${first.edge.id}' and '${edge.id}'${hint}`,
        edgeId: edge.id,
        nodeId: side.node,
        path: ["edges", item.index],
      });
    }
  }
}

/**
 * Input/Output presence, reachability (from the Input over session edges; tools and memory through the agents
 * they are attached to), dead ends, cycles that do not pass through a Selector, and fork branch counts.
 */
export function checkFlow(byId: ReadonlyMap<string, NodeSkeleton>, wired: readonly WiredEdge[], problems: Problem[]): void {
  const nodes = [...byId.values()];
  const inputs = nodes.filter((node) => node.type === "input");
  if (inputs.length === 0) problems.push({ code: "missing_input", message: "expected one Input node, found none", path: ["nodes"] });
  for (const extra of inputs.slice(1)) {
    problems.push({ code: "multiple_inputs", message: `expected one Input node, found ${inputs.length} (${list(inputs.map((node) => node.id))})`, nodeId: extra.id, path: ["nodes", extra.index] });
  }
  if (!nodes.some((node) => node.type === "output")) {
    problems.push({ code: "missing_output", message: "expected at least one Output node, found none", path: ["nodes"] });
  }

  const sessionIds = nodes.filter((node) => isSessionNode(node.type)).map((node) => node.id);
  const sessionEdges = wired.filter((item) => item.portType === "session").map((item) => [item.edge.source, item.edge.target] as const);
  const next = adjacency(sessionIds, sessionEdges);

  if (inputs.length > 0) {
    const reached = reachableFrom(inputs.map((node) => node.id), next);
    for (const item of wired) if (item.portType !== "session" && reached.has(item.edge.target)) reached.add(item.edge.source);
    for (const node of nodes) {
      if (reached.has(node.id)) continue;
      const how = isSessionNode(node.type) ? `no path of session edges leads to it from Input '${(inputs[0] as NodeSkeleton).id}'` : "it is not attached to any reachable agent";
      problems.push({ code: "unreachable_node", message: `${node.type} node '${node.id}' is unreachable: ${how}`, nodeId: node.id, path: ["nodes", node.index] });
    }
  }

  for (const node of nodes) {
    if (!isSessionNode(node.type) || node.type === "output") continue;
    if ((next.get(node.id) ?? []).length > 0) continue;
    const ports = NODE_PORTS[node.type].outputs.map((port) => `'${port.name}'`).join(" or ");
    problems.push({ code: "dead_end", message: `${node.type} node '${node.id}' has no outgoing session edge; expected an edge from ${ports} (the session would be lost)`, nodeId: node.id, path: ["nodes", node.index] });
  }

  for (const component of cyclicComponents(sessionIds, next)) {
    if (component.some((id) => byId.get(id)?.type === "selector")) continue;
    const first = byId.get(component[0] as string) as NodeSkeleton;
    problems.push({
      code: "cycle_without_selector",
      message: `the session edges between ${list(component)} form a cycle without a Selector; expected every loop to pass through a Selector that can end it`,
      nodeId: first.id,
      path: ["nodes", first.index],
    });
  }

  checkMergesInLoops(byId, wired, cyclicComponents(sessionIds, next), problems);

  for (const node of nodes) {
    if (node.type !== "fork" || node.node?.type !== "fork" || node.node.config.branches === undefined) continue;
    const count = (next.get(node.id) ?? []).length;
    if (count === node.node.config.branches) continue;
    problems.push({ code: "fork_branch_mismatch", message: `fork '${node.id}' declares ${node.node.config.branches} branches but has ${count} outgoing edges`, nodeId: node.id, path: ["nodes", node.index, "config", "branches"] });
  }
}

/**
 * A Merge waits for one session per incoming edge. When some of its edges come from inside a loop it belongs to
 * and some from outside, it can never fire twice (the outside edges deliver once), so the run would stall.
 */
function checkMergesInLoops(
  byId: ReadonlyMap<string, NodeSkeleton>,
  wired: readonly WiredEdge[],
  components: readonly string[][],
  problems: Problem[],
): void {
  for (const component of components) {
    const members = new Set(component);
    for (const id of component) {
      const merge = byId.get(id) as NodeSkeleton;
      if (merge.type !== "merge") continue;
      const incoming = wired.filter((item) => item.portType === "session" && item.edge.target === id);
      const inside = incoming.filter((item) => members.has(item.edge.source)).map((item) => item.edge.id);
      const outside = incoming.filter((item) => !members.has(item.edge.source)).map((item) => item.edge.id);
      if (inside.length === 0 || outside.length === 0) continue;
      problems.push({
        code: "merge_in_loop",
        message: `merge '${id}' waits for edges from inside its loop (${list(inside)}) and from outside it (${list(outside)}); the outside edges deliver once, so the merge would wait forever on the second pass. Expected all of a looping merge's edges to come from inside the loop`,
        nodeId: id,
        path: ["nodes", merge.index],
      });
    }
  }
}
