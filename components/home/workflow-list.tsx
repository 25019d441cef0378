/** The workflows of the home page: name, description, revision count, last run status and a Run form each. */
import Link from "next/link";
import { DemoProviderLabel } from "../ui/demo-provider-label";
import { StatusBadge } from "../ui/status-badge";
import type { WorkflowSummary } from "./home-data";
import { RunForm } from "./run-form";

/** Renders one card per workflow (an empty state when there are none). */
export function WorkflowList({ workflows }: { workflows: WorkflowSummary[] }) {
  if (workflows.length === 0) {
    return (
      <p data-testid="workflows-empty" className="text-sm text-zinc-500">
        No workflows yet. Run one with <code>npx rath run SPEC.json</code> or import a spec through the API.
      </p>
    );
  }
  return (
    <ul className="grid gap-4" data-testid="workflow-list">
      {workflows.map((workflow) => (
        <li
          key={workflow.id}
          data-testid="workflow-card"
          data-workflow-name={workflow.name}
          className="rounded-lg border border-zinc-200 bg-white p-4 shadow-sm dark:border-zinc-800 dark:bg-zinc-900"
        >
          <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
            <h3 data-testid="workflow-name" className="text-base font-semibold">
              {workflow.name}
            </h3>
            <span data-testid="workflow-revisions" className="text-xs text-zinc-500">
              {workflow.revisionCount} {workflow.revisionCount === 1 ? "revision" : "revisions"}
            </span>
            {workflow.usesDemoProvider ? <DemoProviderLabel /> : null}
            <span className="ml-auto flex items-center gap-2 text-xs text-zinc-500">
              last run
              {workflow.lastRunStatus !== null && workflow.lastRunId !== null ? (
                <Link href={`/runs/${workflow.lastRunId}`} className="hover:underline">
                  <StatusBadge status={workflow.lastRunStatus} testId="workflow-last-run-status" />
                </Link>
              ) : (
                <span data-testid="workflow-last-run-status">never</span>
              )}
            </span>
          </div>
          {workflow.description !== "" ? <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">{workflow.description}</p> : null}
          <RunForm workflowId={workflow.id} workflowName={workflow.name} defaultInput={workflow.defaultInput} />
        </li>
      ))}
    </ul>
  );
}
