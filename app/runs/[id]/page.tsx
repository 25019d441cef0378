import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { parseUrlSelection } from "../../../components/run/run-selection-url";
import { runTitle } from "../../../components/run/run-title";
import { RunView } from "../../../components/run/run-view";
import { sharedRuntime } from "../../../server/services/shared-runtime";
import { loadRunPage, runTitleFacts } from "../../_data/run-page";

export const dynamic = "force-dynamic";

interface RunPageProps {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}

/** The tab title: the workflow's name and the run's status. */
export async function generateMetadata({ params }: RunPageProps): Promise<Metadata> {
  const { id } = await params;
  const { database } = await sharedRuntime();
  const facts = await runTitleFacts(database, id);
  return { title: facts === null ? "Run not found" : runTitle(facts.workflowName, facts.status) };
}

/** One run: the live session graph explorer. */
export default async function RunPage({ params, searchParams }: RunPageProps) {
  const [{ id }, search] = await Promise.all([params, searchParams]);
  const { database } = await sharedRuntime();
  const page = await loadRunPage(database, id);
  if (page === null) notFound();
  return (
    <RunView
      key={id}
      runId={id}
      initial={page.detail}
      workflowName={page.workflowName}
      revisionNumber={page.revisionNumber}
      labels={page.labels}
      usesDemoProvider={page.usesDemoProvider}
      initialSelection={parseUrlSelection(search)}
    />
  );
}
