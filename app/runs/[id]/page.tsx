import { notFound } from "next/navigation";
import { isRathError } from "../../../runtime/errors";
import { RunView } from "../../../components/run/run-view";
import { getRevision } from "../../../server/db/workflow-store";
import { getRunDetail } from "../../../server/services/run-service";
import { sharedRuntime } from "../../../server/services/shared-runtime";
import { getWorkflowDetail } from "../../../server/services/workflow-service";
import { createDemoProviderCheck } from "../../_data/demo-provider";

export const dynamic = "force-dynamic";

async function workflowNameOf(database: Awaited<ReturnType<typeof sharedRuntime>>["database"], workflowId: string): Promise<string> {
  try {
    return (await getWorkflowDetail(database, workflowId)).workflow.name;
  } catch (error) {
    if (isRathError(error, "not_found")) return workflowId;
    throw error;
  }
}

/** One run: status, output, approvals, sessions and chunks (live while the run is active). */
export default async function RunPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const { database } = await sharedRuntime();
  let detail: Awaited<ReturnType<typeof getRunDetail>>;
  try {
    detail = await getRunDetail(database, id);
  } catch (error) {
    if (isRathError(error, "not_found")) notFound();
    throw error;
  }
  const [workflowName, revision] = await Promise.all([workflowNameOf(database, detail.run.workflowId), getRevision(database, detail.run.revisionId)]);
  const usesDemoProvider = revision === null ? false : await createDemoProviderCheck(database)(revision.spec);
  return <RunView runId={id} initial={detail} workflowName={workflowName} usesDemoProvider={usesDemoProvider} />;
}
