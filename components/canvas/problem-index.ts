/**
 * Validation problems indexed for the canvas: by node, by edge, and the ones that belong to neither (the
 * workflow as a whole). Built from `workflows.validate`'s answer; pure.
 */
import type { Problem } from "../../runtime/workflow-spec/problems";
import type { WorkflowNode } from "../../runtime/workflow-spec/workflow-spec";
import type { Decorations } from "./flow-projection";

/** Problems by where they belong. */
export interface ProblemIndex {
  readonly all: readonly Problem[];
  readonly byNode: ReadonlyMap<string, readonly Problem[]>;
  readonly byEdge: ReadonlyMap<string, readonly Problem[]>;
}

/** No problems. */
export const NO_PROBLEMS: ProblemIndex = { all: [], byNode: new Map(), byEdge: new Map() };

/**
 * Indexes `problems`. A field problem without a node id but with a path `nodes[i]...` is tied to node i, so
 * every field error lands on its node.
 */
export function indexProblems(problems: readonly Problem[], nodes: readonly WorkflowNode[]): ProblemIndex {
  const byNode = new Map<string, Problem[]>();
  const byEdge = new Map<string, Problem[]>();
  const all: Problem[] = [];
  for (const original of problems) {
    let problem = original;
    if (problem.nodeId === undefined && problem.path?.[0] === "nodes" && typeof problem.path[1] === "number") {
      const node = nodes[problem.path[1]];
      if (node !== undefined) problem = { ...problem, nodeId: node.id };
    }
    all.push(problem);
    if (problem.nodeId !== undefined) byNode.set(problem.nodeId, [...(byNode.get(problem.nodeId) ?? []), problem]);
    if (problem.edgeId !== undefined) byEdge.set(problem.edgeId, [...(byEdge.get(problem.edgeId) ?? []), problem]);
  }
  return { all, byNode, byEdge };
}

/** The problems of one node. */
export function problemsFor(index: ProblemIndex, nodeId: string): readonly Problem[] {
  return index.byNode.get(nodeId) ?? [];
}

/** Problem messages as canvas decorations. */
export function problemDecorations(index: ProblemIndex): Pick<Decorations, "nodeProblems" | "edgeProblems"> {
  const messages = (map: ReadonlyMap<string, readonly Problem[]>) => new Map([...map].map(([id, list]) => [id, list.map((problem) => problem.message)]));
  return { nodeProblems: messages(index.byNode), edgeProblems: messages(index.byEdge) };
}
