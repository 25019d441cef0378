/**
 * What a run page renders, read on the server: the run (null when there is none), its workflow's name, the
 * canvas labels of its revision and whether the demo provider answers it. Shared by /runs/[id] and /share/[token].
 */
import { isRathError } from "../../runtime/errors";
import type { Database } from "../../server/services/shared-database";
import { getRunDetail, requireRun } from "../../server/services/run-service";
import { findRevision, getWorkflowDetail } from "../../server/services/workflow-service";
import { createDemoProviderCheck } from "./demo-provider";
import { nodeLabelsOf } from "./node-labels";

type RunDetail = Awaited<ReturnType<typeof getRunDetail>>;

/** A run page's server-side data. */
export interface RunPageData {
  detail: RunDetail;
  workflowName: string;
  revisionNumber: number | null;
  labels: Record<string, string>;
  usesDemoProvider: boolean;
}

/** The workflow's name, or its id when it is gone. */
async function workflowNameOf(database: Database, workflowId: string): Promise<string> {
  try {
    return (await getWorkflowDetail(database, workflowId)).workflow.name;
  } catch (error) {
    if (isRathError(error, "not_found")) return workflowId;
    throw error;
  }
}

/** The run's detail, or null when there is no such run. */
async function runOrNull(database: Database, id: string): Promise<RunDetail | null> {
  try {
    return await getRunDetail(database, id);
  } catch (error) {
    if (isRathError(error, "not_found")) return null;
    throw error;
  }
}

/**
 * What the tab title names: the workflow and the run's status, or null when there is no such run. It reads the run
 * alone, so a run whose other records cannot be read still gets its title (and the page's error.tsx).
 */
export async function runTitleFacts(database: Database, id: string): Promise<{ workflowName: string; status: string } | null> {
  try {
    const run = await requireRun(database, id);
    return { workflowName: await workflowNameOf(database, run.workflowId), status: run.status };
  } catch (error) {
    if (isRathError(error, "not_found")) return null;
    throw error;
  }
}

/** Everything the run view needs from the server, or null when there is no such run. */
export async function loadRunPage(database: Database, id: string): Promise<RunPageData | null> {
  const detail = await runOrNull(database, id);
  if (detail === null) return null;
  const [workflowName, revision] = await Promise.all([workflowNameOf(database, detail.run.workflowId), findRevision(database, detail.run.revisionId)]);
  const usesDemoProvider = revision === null ? false : await createDemoProviderCheck(database)(revision.spec);
  return { detail, workflowName, revisionNumber: revision?.number ?? null, labels: nodeLabelsOf(revision?.spec), usesDemoProvider };
}
