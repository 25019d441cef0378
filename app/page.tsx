import type { Metadata } from "next";
import { ProviderCard } from "../components/home/provider-card";
import { RunFileDrop } from "../components/home/run-file-drop";
import { RunList } from "../components/home/run-list";
import { WorkflowWorkspace } from "../components/home/workflow-workspace";
import { sharedRuntime } from "../server/services/shared-runtime";
import { loadHome } from "./_data/home";

export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: { absolute: "Workflows · Rath Studio" } };

/** Home: the workflows (create, template, import, rename, duplicate, delete, run), the provider in use, run files to open, recent runs. */
export default async function HomePage() {
  const { database } = await sharedRuntime();
  // Taken before the cards' data is read: a run that changes after this refreshes the page (components/home/page-refresh.ts).
  const renderedAt = Date.now();
  const home = await loadHome(database);
  const workflowNames = Object.fromEntries(home.workflows.map((workflow) => [workflow.id, workflow.name]));
  return (
    <main className="mx-auto w-full max-w-6xl px-4 py-6 sm:px-6 sm:py-8" data-testid="home">
      <header className="mb-6 flex flex-col gap-4 lg:flex-row lg:items-start lg:justify-between">
        <div className="min-w-0">
          <h1 className="text-xl font-semibold tracking-tight">Rath Studio</h1>
          <p className="mt-1 max-w-2xl text-sm text-muted">
            Compose agents, tools and selectors into workflows, run them durably, and inspect every session they produce: its conversation,
            lineage, token usage and tool evidence.
          </p>
        </div>
        <div className="w-full shrink-0 lg:w-80">
          <ProviderCard provider={home.provider} />
        </div>
      </header>
      <WorkflowWorkspace workflows={home.workflows} />
      <RunFileDrop />
      <section aria-labelledby="runs-heading" className="mt-10">
        <div className="mb-3 flex items-center gap-2">
          <h2 id="runs-heading" className="mr-auto text-base font-semibold">
            Recent runs
          </h2>
          <a href="/runs" className="text-xs font-medium text-accent hover:underline">
            All runs
          </a>
        </div>
        <RunList pageSize={10} workflowNames={workflowNames} renderedAt={renderedAt} emptyHint="Type an input in a workflow's Run box above and press Run." />
      </section>
    </main>
  );
}
