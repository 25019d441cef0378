import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { isRathError } from "../../../runtime/errors";
import { parseUrlSelection } from "../../../components/run/run-selection-url";
import { RunView } from "../../../components/run/run-view";
import { getRunDetail } from "../../../server/services/run-service";
import { sharedRuntime } from "../../../server/services/shared-runtime";
import { findRevision, getWorkflowDetail } from "../../../server/services/workflow-service";
import { createDemoProviderCheck } from "../../_data/demo-provider";
import { nodeLabelsOf } from "../../_data/node-labels";

export const dynamic = "force-dynamic";

type Database = Awaited<ReturnType<typeof sharedRuntime>>["database"];
interface RunPageProps {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}

async function workflowNameOf(database: Database, workflowId: string): Promise<string> {
  try {
    return (await getWorkflowDetail(database, workflowId)).workflow.name;
  } catch (error) {
    if (isRathError(error, "not_found")) return workflowId;
    throw error;
  }
}

async function runOrNull(database: Database, id: string): Promise<Awaited<ReturnType<typeof getRunDetail>> | null> {
  try {
    return await getRunDetail(database, id);
  } catch (error) {
    if (isRathError(error, "not_found")) return null;
    throw error;
  }
}

/** The tab title: the workflow's name and the run's status. */
export async function generateMetadata({ params }: RunPageProps): Promise<Metadata> {
  const { id } = await params;
  const { database } = await sharedRuntime();
  const detail = await runOrNull(database, id);
  if (detail === null) return { title: "Run not found" };
  const name = await workflowNameOf(database, detail.run.workflowId);
  return { title: `${name} · ${detail.run.status.replaceAll("_", " ")}` };
}

/** One run: the live session graph explorer. */
export default async function RunPage({ params, searchParams }: RunPageProps) {
  const [{ id }, search] = await Promise.all([params, searchParams]);
  const { database } = await sharedRuntime();
  const detail = await runOrNull(database, id);
  if (detail === null) notFound();
  const [workflowName, revision] = await Promise.all([workflowNameOf(database, detail.run.workflowId), findRevision(database, detail.run.revisionId)]);
  const usesDemoProvider = revision === null ? false : await createDemoProviderCheck(database)(revision.spec);
  return (
    <RunView
      key={id}
      runId={id}
      initial={detail}
      workflowName={workflowName}
      revisionNumber={revision?.number ?? null}
      labels={nodeLabelsOf(revision?.spec)}
      usesDemoProvider={usesDemoProvider}
      initialSelection={parseUrlSelection(search)}
    />
  );
}
