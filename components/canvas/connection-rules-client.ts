/**
 * The canvas's side of the port rules: adapts a React Flow connection to `checkConnection` from
 * runtime/workflow-spec (the one source of truth the server validator also reads). No rule lives here.
 */
import type { Connection, Edge } from "@xyflow/react";
import { checkConnection, type ConnectionVerdict } from "../../runtime/workflow-spec/connection-rules";
import type { NodeType, WorkflowEdge, WorkflowNode } from "../../runtime/workflow-spec/workflow-spec";

/** The verdict on a React Flow connection (or edge) against the document's nodes and edges. */
export function verdictFor(connection: Connection | Edge, nodes: readonly WorkflowNode[], edges: readonly WorkflowEdge[]): ConnectionVerdict {
  const types = new Map<string, NodeType>(nodes.map((node) => [node.id, node.type]));
  return checkConnection(
    { source: connection.source, sourcePort: connection.sourceHandle ?? "out", target: connection.target, targetPort: connection.targetHandle ?? "in" },
    { typeOf: (id) => types.get(id), edges },
  );
}
