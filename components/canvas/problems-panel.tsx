"use client";
/**
 * The problems list under the canvas (VS Code style): every validation problem with the node or wire it belongs
 * to; clicking one selects that node (or the wire's ends) and centres the view on it.
 */
import { CircleCheck, LoaderCircle, TriangleAlert } from "lucide-react";
import type { Problem } from "../../runtime/workflow-spec/problems";

/** Props: the problems, whether validation is running, and what a click does. */
export interface ProblemsPanelProps {
  problems: readonly Problem[];
  pending: boolean;
  error: string | null;
  onReveal: (problem: Problem) => void;
}

/** The list. */
export function ProblemsPanel({ problems, pending, error, onReveal }: ProblemsPanelProps) {
  return (
    <div className="flex h-full min-h-0 flex-col" data-testid="problems-panel" data-count={problems.length}>
      <div className="flex items-center gap-2 border-b border-line px-3 py-1.5 text-xs">
        <h2 className="font-semibold text-ink">Problems</h2>
        <span className="rounded-full bg-raised px-1.5 text-[11px] text-muted tabular">{problems.length}</span>
        {pending ? (
          <span className="ml-auto flex items-center gap-1 text-faint">
            <LoaderCircle className="size-3 animate-spin" aria-hidden="true" /> checking
          </span>
        ) : null}
      </div>
      <div className="min-h-0 flex-1 overflow-y-auto">
        {error !== null ? <p className="px-3 py-2 text-xs text-status-failed">Validation is unavailable: {error}</p> : null}
        {problems.length === 0 && error === null ? (
          <p className="flex items-center gap-1.5 px-3 py-2 text-xs text-muted">
            <CircleCheck className="size-3.5 text-status-succeeded" aria-hidden="true" /> No problems: this workflow can be saved and run.
          </p>
        ) : (
          <ul>
            {problems.map((problem, index) => (
              <li key={`${problem.code}-${problem.nodeId ?? ""}-${problem.edgeId ?? ""}-${index}`}>
                <button
                  type="button"
                  data-testid="problem-item"
                  data-node-id={problem.nodeId ?? ""}
                  data-code={problem.code}
                  onClick={() => onReveal(problem)}
                  className="flex w-full items-start gap-2 px-3 py-1 text-left text-xs hover:bg-raised focus-visible:bg-raised"
                >
                  <TriangleAlert className="mt-0.5 size-3.5 shrink-0 text-status-failed" aria-hidden="true" />
                  <span className="min-w-0 flex-1 text-ink">{problem.message}</span>
                  <span className="shrink-0 font-mono text-[11px] text-faint">{problem.nodeId ?? problem.edgeId ?? problem.code}</span>
                </button>
              </li>
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}
