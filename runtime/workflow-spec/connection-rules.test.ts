import { describe, expect, it } from "vitest";
import { checkConnection, type ConnectionContext } from "./connection-rules";
import { canConnect, NODE_PORTS } from "./ports";
import { NODE_TYPES, type NodeType } from "./workflow-spec";

const TYPES: Record<string, NodeType> = {
  input: "input",
  agent: "agent",
  agent2: "agent",
  shell: "tool",
  notes: "memory",
  router: "selector",
  fork: "fork",
  output: "output",
};

function context(edges: ConnectionContext["edges"] = []): ConnectionContext {
  return { typeOf: (id) => TYPES[id], edges };
}

function wire(source: string, target: string, sourcePort = "out", targetPort = "in") {
  return { source, sourcePort, target, targetPort };
}

describe("checkConnection", () => {
  it("allows a session wire, a tool on an agent's tools and memory on its memory port", () => {
    expect(checkConnection(wire("input", "agent"), context())).toEqual({ ok: true });
    expect(checkConnection(wire("shell", "agent", "out", "tools"), context())).toEqual({ ok: true });
    expect(checkConnection(wire("notes", "agent", "out", "memory"), context())).toEqual({ ok: true });
  });

  it("refuses mismatched port types with where the wire should go", () => {
    expect(checkConnection(wire("shell", "output"), context())).toEqual({
      ok: false,
      reason: "'out' carries a tool but 'in' expects a session; connect it to an Agent's 'tools' port",
    });
    expect(checkConnection(wire("input", "agent", "out", "memory"), context())).toEqual({
      ok: false,
      reason: "'out' carries a session but 'memory' expects a memory store; connect it to a node's 'in' port",
    });
  });

  it("refuses wires into Input, out of Output, and to the same node", () => {
    expect(checkConnection(wire("agent", "input"), context())).toEqual({ ok: false, reason: "Input starts the workflow: nothing can flow into it" });
    expect(checkConnection(wire("output", "agent"), context())).toEqual({ ok: false, reason: "Output has no output port 'out'" });
    expect(checkConnection(wire("agent", "agent"), context())).toEqual({ ok: false, reason: "a node cannot be wired to itself" });
  });

  it("refuses a second wire on a single port and suggests a Fork for sessions", () => {
    const taken = context([wire("input", "agent")]);
    expect(checkConnection(wire("input", "agent2"), taken)).toEqual({
      ok: false,
      reason: "Input's 'out' port takes one wire and already has one; add a Fork to send the session down several paths",
    });
    const remembered = context([wire("notes", "agent", "out", "memory")]);
    expect(checkConnection(wire("notes", "agent", "out", "memory"), remembered)).toEqual({ ok: false, reason: "these two ports are already wired" });
  });

  it("lets multi ports take many wires: a Fork's out, a Selector's candidates, an agent's tools", () => {
    const edges = [wire("fork", "agent"), wire("router", "agent"), wire("shell", "agent", "out", "tools")];
    expect(checkConnection(wire("fork", "agent2"), context(edges))).toEqual({ ok: true });
    expect(checkConnection(wire("router", "agent2"), context(edges))).toEqual({ ok: true });
    expect(checkConnection(wire("shell", "agent2", "out", "tools"), context(edges))).toEqual({ ok: true });
  });

  it("agrees with canConnect on every pair of port types in the table", () => {
    for (const sourceType of NODE_TYPES) {
      for (const targetType of NODE_TYPES) {
        for (const from of NODE_PORTS[sourceType].outputs) {
          for (const to of NODE_PORTS[targetType].inputs) {
            const verdict = checkConnection(wire("a", "b", from.name, to.name), { typeOf: (id) => (id === "a" ? sourceType : targetType), edges: [] });
            expect(verdict.ok, `${sourceType}.${from.name} -> ${targetType}.${to.name}`).toBe(canConnect(sourceType, from.name, targetType, to.name));
          }
        }
      }
    }
  });
});
