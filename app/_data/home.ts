/**
 * The home page's server-side data: seeds the examples on a fresh database, then reads the workflows (with
 * revision count, last run status, demo-provider use) and the recent runs through the services.
 */
import type { RecentRun, WorkflowSummary } from "../../components/home/home-data";
import type { Database } from "../../server/db/database";
import { listRunsPage } from "../../server/services/run-service";
import { ensureExamplesSeeded } from "../../server/services/seed-examples";
import { getWorkflowDetail, listWorkflows } from "../../server/services/workflow-service";
import { createDemoProviderCheck } from "./demo-provider";

/** Everything the home page shows. */
export interface HomeData {
  workflows: WorkflowSummary[];
  runs: RecentRun[];
  demoProviderInUse: boolean;
}

function defaultInputOf(spec: unknown): string {
  const nodes = (spec as { nodes?: Array<{ type?: unknown; config?: { defaultText?: unknown } }> } | null)?.nodes ?? [];
  const input = nodes.find((node) => node.type === "input");
  return typeof input?.config?.defaultText === "string" ? input.config.defaultText : "";
}

/** Loads the home page (seeding first, at most once per process). */
export async function loadHome(database: Database, options: { runLimit?: number } = {}): Promise<HomeData> {
  await ensureExamplesSeeded(database);
  const usesDemo = createDemoProviderCheck(database);
  const records = await listWorkflows(database, { limit: 100 });
  const workflows = await Promise.all(
    records.map(async (record): Promise<WorkflowSummary> => {
      const [{ head }, lastRuns] = await Promise.all([getWorkflowDetail(database, record.id), listRunsPage(database, { workflowId: record.id, limit: 1 })]);
      const lastRun = lastRuns.runs[0];
      return {
        id: record.id,
        name: record.name,
        description: record.description,
        // Revisions are numbered 1, 2, ... and never deleted, so the head's number is the count.
        revisionCount: head?.number ?? 0,
        lastRunStatus: lastRun?.status ?? null,
        lastRunId: lastRun?.id ?? null,
        defaultInput: head === null ? "" : defaultInputOf(head.spec),
        usesDemoProvider: head === null ? false : await usesDemo(head.spec),
      };
    }),
  );
  const names = new Map(records.map((record) => [record.id, record.name]));
  const page = await listRunsPage(database, { limit: options.runLimit ?? 20 });
  const runs = page.runs.map(
    (run): RecentRun => ({
      id: run.id,
      workflowName: names.get(run.workflowId) ?? run.workflowId,
      status: run.status,
      startedAt: run.startedAt,
      createdAt: run.createdAt,
      finishedAt: run.finishedAt,
      tokensUsed: run.tokensUsed,
    }),
  );
  return { workflows, runs, demoProviderInUse: workflows.some((workflow) => workflow.usesDemoProvider) };
}
