import type { Metadata } from "next";
import { RunList } from "../../components/home/run-list";
import { listWorkflows } from "../../server/services/workflow-service";
import { sharedRuntime } from "../../server/services/shared-runtime";

export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "Runs" };

/** Every run, newest first, paged, filtered by status and workflow. */
export default async function RunsPage() {
  const { database } = await sharedRuntime();
  const workflows = await listWorkflows(database, { limit: 500 });
  const workflowNames = Object.fromEntries(workflows.map((workflow) => [workflow.id, workflow.name]));
  return (
    <main className="mx-auto w-full max-w-6xl px-4 py-6 sm:px-6 sm:py-8" data-testid="runs-page">
      <h1 className="text-xl font-semibold tracking-tight">Runs</h1>
      <p className="mt-1 mb-5 text-sm text-muted">Every run of every workflow, newest first. Open one to see its session graph, or tick two to compare them.</p>
      <RunList pageSize={25} workflowNames={workflowNames} filters comparePicker />
    </main>
  );
}
