/**
 * Tool and Memory nodes never run as steps: they are attachments of the agents they are wired to. In the live run
 * overlay each one shows the status of its agent (with several agents, the most telling one: running, then
 * waiting, failed, queued, succeeded), so a tool lights up while its agent works instead of staying grey. Pure.
 */
import { isSessionNode } from "../../runtime/workflow-spec/ports";
import type { WorkflowEdge, WorkflowNode } from "../../runtime/workflow-spec/workflow-spec";
import type { NodeRunStatus } from "./flow-projection";

/** A node's status in the overlay. */
export type OverlayStatus = { status: NodeRunStatus; detail?: string };

const RANK: Record<NodeRunStatus, number> = { running: 0, waiting: 1, failed: 2, queued: 3, succeeded: 4 };

/** `statuses` plus one entry per attachment wired to an agent that has a status. */
export function withAttachmentStatus(
  statuses: ReadonlyMap<string, OverlayStatus>,
  nodes: readonly Pick<WorkflowNode, "id" | "type">[],
  edges: readonly Pick<WorkflowEdge, "source" | "target">[],
): ReadonlyMap<string, OverlayStatus> {
  const attachments = new Set(nodes.filter((node) => !isSessionNode(node.type)).map((node) => node.id));
  if (attachments.size === 0 || statuses.size === 0) return statuses;
  const result = new Map(statuses);
  for (const edge of edges) {
    if (!attachments.has(edge.source) || statuses.has(edge.source)) continue;
    const agent = statuses.get(edge.target);
    if (agent === undefined) continue;
    const current = result.get(edge.source);
    if (current === undefined || RANK[agent.status] < RANK[current.status]) result.set(edge.source, { status: agent.status, detail: `via ${edge.target}` });
  }
  return result;
}
