import { AutoRefresh } from "../components/home/auto-refresh";
import { RecentRuns } from "../components/home/recent-runs";
import { WorkflowList } from "../components/home/workflow-list";
import { DemoProviderLabel } from "../components/ui/demo-provider-label";
import { isActiveStatus } from "../components/ui/format";
import { sharedRuntime } from "../server/services/shared-runtime";
import { loadHome } from "./_data/home";

export const dynamic = "force-dynamic";

/** Home: the workflows with a Run form each, and the recent runs. */
export default async function HomePage() {
  const { database } = await sharedRuntime();
  const home = await loadHome(database);
  return (
    <main className="mx-auto max-w-5xl px-6 py-10" data-testid="home">
      <header className="flex flex-wrap items-center gap-3">
        <h1 className="text-2xl font-semibold tracking-tight">Rath Studio</h1>
        {home.demoProviderInUse ? <DemoProviderLabel /> : null}
      </header>
      <p className="mt-2 max-w-3xl text-sm text-zinc-600 dark:text-zinc-400">
        Run a workflow, then inspect its sessions: every step is an immutable Session with its conversation, lineage,
        token usage and tool evidence.
      </p>
      <section className="mt-8" aria-labelledby="workflows-heading">
        <h2 id="workflows-heading" className="mb-3 text-lg font-semibold">
          Workflows
        </h2>
        <WorkflowList workflows={home.workflows} />
      </section>
      <section className="mt-10" aria-labelledby="runs-heading">
        <h2 id="runs-heading" className="mb-3 text-lg font-semibold">
          Recent runs
        </h2>
        <RecentRuns runs={home.runs} />
      </section>
      <AutoRefresh active={home.runs.some((run) => isActiveStatus(run.status) && run.status !== "waiting")} />
    </main>
  );
}
