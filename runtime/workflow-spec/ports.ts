import type { NodeType } from "./workflow-spec";

/** What flows over a wire: a Session, a tool attachment or a memory attachment. */
export type PortType = "session" | "tool" | "memory";

/** One port of a node type. `multiple` says whether more than one edge may use it. */
export interface PortSpec {
  readonly name: string;
  readonly type: PortType;
  readonly multiple: boolean;
  /** Shown on the canvas next to the port. */
  readonly description: string;
}

/** The input and output ports of one node type. */
export interface NodePorts {
  readonly inputs: readonly PortSpec[];
  readonly outputs: readonly PortSpec[];
}

const sessionIn: PortSpec = { name: "in", type: "session", multiple: true, description: "session in" };
const sessionOut: PortSpec = { name: "out", type: "session", multiple: false, description: "session out" };

/**
 * The typed ports of every node type, the one table the canvas (connection validation) and the validator use.
 * A Selector's candidates are the targets of its `out` edges, in edge order; its `done` edge is taken on -1.
 */
export const NODE_PORTS: Readonly<Record<NodeType, NodePorts>> = {
  input: { inputs: [], outputs: [sessionOut] },
  agent: {
    inputs: [
      sessionIn,
      { name: "tools", type: "tool", multiple: true, description: "tools the agent may call" },
      { name: "memory", type: "memory", multiple: false, description: "memory recalled before and committed after" },
    ],
    outputs: [sessionOut],
  },
  tool: { inputs: [], outputs: [{ name: "out", type: "tool", multiple: true, description: "attach to an agent's tools" }] },
  selector: {
    inputs: [sessionIn],
    outputs: [
      { name: "out", type: "session", multiple: true, description: "candidates, in edge order (index 0, 1, ...)" },
      { name: "done", type: "session", multiple: false, description: "taken when the selector answers -1" },
    ],
  },
  fork: { inputs: [sessionIn], outputs: [{ name: "out", type: "session", multiple: true, description: "one fork per edge" }] },
  merge: {
    inputs: [{ name: "in", type: "session", multiple: true, description: "waits for every edge; merged in edge order" }],
    outputs: [sessionOut],
  },
  compressor: { inputs: [sessionIn], outputs: [sessionOut] },
  memory: {
    inputs: [],
    outputs: [{ name: "out", type: "memory", multiple: true, description: "attach to an agent's memory" }],
  },
  approval: { inputs: [sessionIn], outputs: [sessionOut] },
  subworkflow: { inputs: [sessionIn], outputs: [sessionOut] },
  output: { inputs: [sessionIn], outputs: [] },
};

/** The input port `name` of a node type, or undefined. */
export function inputPort(type: NodeType, name: string): PortSpec | undefined {
  return NODE_PORTS[type].inputs.find((port) => port.name === name);
}

/** The output port `name` of a node type, or undefined. */
export function outputPort(type: NodeType, name: string): PortSpec | undefined {
  return NODE_PORTS[type].outputs.find((port) => port.name === name);
}

/** True when `source.sourcePort -> target.targetPort` joins an output to an input of the same port type. */
export function canConnect(sourceType: NodeType, sourcePort: string, targetType: NodeType, targetPort: string): boolean {
  const from = outputPort(sourceType, sourcePort);
  const to = inputPort(targetType, targetPort);
  return from !== undefined && to !== undefined && from.type === to.type;
}

/** Node types that take part in session flow (the others are attached to agents). */
export function isSessionNode(type: NodeType): boolean {
  return type !== "tool" && type !== "memory";
}
