/**
 * First-start seeding: a database that has never held a workflow gets the example workflows of
 * server/engine/spec/examples (each a workflow with one revision, made by template-catalog.ts), so a new user has something to run.
 * The marker is the workflow table itself: workflows are only ever soft-deleted, so once the examples (or any
 * workflow) were created the table is never empty again, and deleting the examples never brings them back.
 */
import type { Database } from "../db/database";
import { listWorkflows } from "../db/workflow-store";
import { resolveTemplateSpec, templateSlugs, templateWorkflowId } from "./template-catalog";
import { compileOrRefuse } from "./workflow-service";

/** What `seedExampleWorkflows` did: whether it seeded, and the ids of the workflows it created (in order). */
export interface SeedReport {
  seeded: boolean;
  workflowIds: string[];
}

/**
 * Slugs in creation order: the reverse of the gallery order, because the home page lists the most recently
 * updated workflow first, so the template a new user should try first (hello-agent) is created last.
 */
function seedOrder(): string[] {
  return [...templateSlugs()].reverse();
}

/**
 * Creates one workflow per template when the database has never held a workflow (deleted ones count); otherwise
 * does nothing. A template that calls another (sub-workflow) reuses that template's workflow, so each template is
 * seeded once. Every template is validated before anything is written (`invalid_workflow` names the problem).
 */
export async function seedExampleWorkflows(database: Database): Promise<SeedReport> {
  const existing = await listWorkflows(database, { includeDeleted: true, limit: 1 });
  if (existing.length > 0) return { seeded: false, workflowIds: [] };
  const slugs = seedOrder();
  for (const slug of slugs) compileOrRefuse(await resolveTemplateSpec(slug, async () => "wf_validation_placeholder"));
  const workflowIds: string[] = [];
  for (const slug of slugs) {
    const id = await templateWorkflowId(database, slug);
    if (!workflowIds.includes(id)) workflowIds.push(id);
  }
  return { seeded: true, workflowIds };
}

const KEY = Symbol.for("rath.examplesSeeded");

type Holder = typeof globalThis & { [KEY]?: Promise<SeedReport> };

/**
 * Seeds at most once per process (the home page calls this on every render); a failed attempt is forgotten so
 * the next call tries again.
 */
export function ensureExamplesSeeded(database: Database): Promise<SeedReport> {
  const holder = globalThis as Holder;
  let seeding = holder[KEY];
  if (seeding === undefined) {
    seeding = seedExampleWorkflows(database);
    holder[KEY] = seeding;
    seeding.catch(() => {
      if (holder[KEY] === seeding) delete holder[KEY];
    });
  }
  return seeding;
}
