/**
 * Whether one more wire may be drawn, and why not: the check the canvas runs while a connection is dragged. It
 * reads the same port table (`NODE_PORTS`) the validator does, so what the canvas refuses is what validation would
 * report (`unknown_port`, `port_type_mismatch`, `too_many_edges`), plus what makes no sense to draw at all
 * (a node wired to itself, the same two ports wired twice).
 */
import { inputPort, outputPort, type PortSpec, type PortType } from "./ports";
import type { NodeType, WorkflowEdge } from "./workflow-spec";

/** A proposed wire from `source.sourcePort` to `target.targetPort`. */
export interface ConnectionCandidate {
  readonly source: string;
  readonly sourcePort: string;
  readonly target: string;
  readonly targetPort: string;
}

/** The answer: allowed, or refused with a reason a person can act on. */
export type ConnectionVerdict = { readonly ok: true } | { readonly ok: false; readonly reason: string };

/** What the check needs to know about the graph: node types by id and the wires already drawn. */
export interface ConnectionContext {
  readonly typeOf: (nodeId: string) => NodeType | undefined;
  readonly edges: readonly Pick<WorkflowEdge, "source" | "sourcePort" | "target" | "targetPort">[];
}

const PORT_NOUN: Record<PortType, string> = { session: "a session", tool: "a tool", memory: "a memory store" };

/** Where an output of `type` may go, as advice for a refused wire. */
function whereItGoes(type: PortType): string {
  if (type === "tool") return "connect it to an Agent's 'tools' port";
  if (type === "memory") return "connect it to an Agent's 'memory' port";
  return "connect it to a node's 'in' port";
}

/**
 * The reason a port of type `from` cannot feed a port of type `to`, or null when the types agree. Shared by the
 * canvas and the validator's `port_type_mismatch` message.
 */
export function portMismatchReason(from: PortSpec, to: PortSpec): string | null {
  if (from.type === to.type) return null;
  return `'${from.name}' carries ${PORT_NOUN[from.type]} but '${to.name}' expects ${PORT_NOUN[to.type]}; ${whereItGoes(from.type)}`;
}

function title(type: NodeType): string {
  return type === "subworkflow" ? "Sub-workflow" : `${type.charAt(0).toUpperCase()}${type.slice(1)}`;
}

/** Checks one proposed wire against the port table and the wires already drawn. */
export function checkConnection(candidate: ConnectionCandidate, context: ConnectionContext): ConnectionVerdict {
  const sourceType = context.typeOf(candidate.source);
  const targetType = context.typeOf(candidate.target);
  if (sourceType === undefined) return { ok: false, reason: `node '${candidate.source}' does not exist` };
  if (targetType === undefined) return { ok: false, reason: `node '${candidate.target}' does not exist` };
  if (candidate.source === candidate.target) return { ok: false, reason: "a node cannot be wired to itself" };
  const from = outputPort(sourceType, candidate.sourcePort);
  if (from === undefined) return { ok: false, reason: `${title(sourceType)} has no output port '${candidate.sourcePort}'` };
  const to = inputPort(targetType, candidate.targetPort);
  if (to === undefined) {
    return { ok: false, reason: targetType === "input" ? "Input starts the workflow: nothing can flow into it" : `${title(targetType)} has no input port '${candidate.targetPort}'` };
  }
  const mismatch = portMismatchReason(from, to);
  if (mismatch !== null) return { ok: false, reason: mismatch };
  const same = (edge: ConnectionContext["edges"][number]) =>
    edge.source === candidate.source && edge.sourcePort === candidate.sourcePort && edge.target === candidate.target && edge.targetPort === candidate.targetPort;
  if (context.edges.some(same)) return { ok: false, reason: "these two ports are already wired" };
  if (!from.multiple && context.edges.some((edge) => edge.source === candidate.source && edge.sourcePort === candidate.sourcePort)) {
    const hint = from.type === "session" ? "; add a Fork to send the session down several paths" : "";
    return { ok: false, reason: `${title(sourceType)}'s '${from.name}' port takes one wire and already has one${hint}` };
  }
  if (!to.multiple && context.edges.some((edge) => edge.target === candidate.target && edge.targetPort === candidate.targetPort)) {
    return { ok: false, reason: `${title(targetType)}'s '${to.name}' port takes one wire and already has one; remove it first` };
  }
  return { ok: true };
}
