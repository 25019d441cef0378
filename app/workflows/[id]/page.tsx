import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { isRathError } from "../../../runtime/errors";
import { WorkflowEditor } from "../../../components/canvas/workflow-editor";
import { revisionView, workflowView } from "../../../server/services/views";
import { sharedRuntime } from "../../../server/services/shared-runtime";
import { getWorkflowDetail } from "../../../server/services/workflow-service";

export const dynamic = "force-dynamic";

async function loadWorkflow(id: string) {
  const { database } = await sharedRuntime();
  try {
    return await getWorkflowDetail(database, id);
  } catch (error) {
    if (isRathError(error, "not_found")) notFound();
    throw error;
  }
}

export async function generateMetadata({ params }: { params: Promise<{ id: string }> }): Promise<Metadata> {
  const { id } = await params;
  const { workflow } = await loadWorkflow(id);
  return { title: workflow.name };
}

/** The workflow editor: canvas, palette, properties, problems, revisions, runs. */
export default async function WorkflowPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const detail = await loadWorkflow(id);
  const workflow = workflowView(detail.workflow);
  return <WorkflowEditor key={workflow.id} workflow={{ id: workflow.id, name: workflow.name, headRevisionId: workflow.headRevisionId }} head={detail.head === null ? null : revisionView(detail.head)} />;
}
