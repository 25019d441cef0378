/**
 * The home page's server-side data: seeds the examples if the server's start did not (its database was down then),
 * then reads the workflows (revision count, node types, last run status) and which provider they run on, through
 * the services. Runs are paged by the browser through tRPC (`runs.list`).
 */
import type { ProviderInUse, WorkflowSummary } from "../../components/home/home-data";
import type { Database } from "../../server/services/shared-database";
import { listRunsPage } from "../../server/services/run-service";
import { ensureExamplesSeeded } from "../../server/services/seed-examples";
import { listProviders } from "../../server/services/settings-service";
import { getWorkflowDetail, listWorkflows } from "../../server/services/workflow-service";
import { NODE_TYPES } from "../../runtime/workflow-spec/workflow-spec";
import { createDemoProviderCheck } from "./demo-provider";

/** Everything the home page shows besides the runs. */
export interface HomeData {
  workflows: WorkflowSummary[];
  provider: ProviderInUse;
}

type SpecNodes = { nodes?: Array<{ type?: unknown; config?: { defaultText?: unknown } }> } | null;

function defaultInputOf(spec: unknown): string {
  const input = ((spec as SpecNodes)?.nodes ?? []).find((node) => node.type === "input");
  return typeof input?.config?.defaultText === "string" ? input.config.defaultText : "";
}

function nodeTypesOf(spec: unknown): string[] {
  const used = new Set(((spec as SpecNodes)?.nodes ?? []).map((node) => node.type));
  return NODE_TYPES.filter((type) => used.has(type));
}

/** Loads the home page (seeding first, at most once per process; server/services/seed-examples.ts). */
export async function loadHome(database: Database): Promise<HomeData> {
  await ensureExamplesSeeded(database);
  const usesDemo = createDemoProviderCheck(database);
  const records = await listWorkflows(database, { limit: 500 });
  const demoAnswers: boolean[] = [];
  const workflows = await Promise.all(
    records.map(async (record): Promise<WorkflowSummary> => {
      const [{ head }, lastRuns] = await Promise.all([getWorkflowDetail(database, record.id), listRunsPage(database, { workflowId: record.id, limit: 1 })]);
      const lastRun = lastRuns.runs[0];
      if (head !== null) demoAnswers.push(await usesDemo(head.spec));
      return {
        id: record.id,
        name: record.name,
        description: record.description,
        // Revisions are numbered 1, 2, ... and never deleted, so the head's number is the count.
        revisionCount: head?.number ?? 0,
        nodeTypes: head === null ? [] : nodeTypesOf(head.spec),
        updatedAt: record.updatedAt.toISOString(),
        lastRunStatus: lastRun?.status ?? null,
        lastRunId: lastRun?.id ?? null,
        defaultInput: head === null ? "" : defaultInputOf(head.spec),
      };
    }),
  );
  const configured = (await listProviders(database)).map(({ name, kind, model, hasApiKey }) => ({ name, kind, model, hasApiKey }));
  return { workflows, provider: { demo: demoAnswers.some(Boolean), configured } };
}
