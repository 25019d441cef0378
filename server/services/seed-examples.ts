/**
 * The example workflows of server/engine/spec/examples (made by template-catalog.ts), seeded when the studio starts
 * (instrumentation.ts, `seedExamplesAtStart`) and, as a fallback, when the home page renders — whatever the database
 * already holds, so a studio whose first workflow came through the API still gets them.
 *
 * Once per example, per database: each seeded workflow's first revision carries the message `Seeded example: <slug>`,
 * and an example is created only when no workflow, live or deleted, has a revision with that message — or, for a
 * database seeded before that marker existed, is named like the example. So restarting never duplicates an example,
 * one the user deleted (workflows are only soft-deleted) or renamed is never brought back, and an example added to a
 * later version of the studio is seeded on its first start.
 */
import type { Database } from "../db/database";
import { createWorkflow, saveRevision } from "../db/workflow-store";
import { resolveTemplateSpec, templateSlugs, templateSummary, templateWorkflowId } from "./template-catalog";
import { compileOrRefuse } from "./workflow-service";

/** What `seedExampleWorkflows` did: whether it created any example, and the ids of the workflows it created (in order). */
export interface SeedReport {
  seeded: boolean;
  workflowIds: string[];
}

/** The first revision message of a seeded example: the marker that it was seeded. */
export function seedMarker(slug: string): string {
  return `Seeded example: ${slug}`;
}

/**
 * Slugs in creation order: the reverse of the gallery order, because the home page lists the most recently
 * updated workflow first, so the template a new user should try first (hello-agent) is created last.
 */
function seedOrder(): string[] {
  return [...templateSlugs()].reverse();
}

/** The slugs already seeded into this database (by their marker, or by name for a database seeded before the marker). */
async function seededSlugs(database: Database, slugs: readonly string[]): Promise<Set<string>> {
  const names = new Map(slugs.map((slug) => [templateSummary(slug).name, slug]));
  const [marked, named] = await Promise.all([
    database.client.workflowRevision.findMany({ where: { message: { in: slugs.map(seedMarker) } }, select: { message: true } }),
    database.client.workflow.findMany({ where: { name: { in: [...names.keys()] } }, select: { name: true } }),
  ]);
  const seeded = new Set<string>();
  for (const slug of slugs) if (marked.some((row) => row.message === seedMarker(slug))) seeded.add(slug);
  for (const row of named) seeded.add(names.get(row.name) as string);
  return seeded;
}

/**
 * Creates each example not seeded yet (see the file comment) as a workflow with one revision. A template that calls
 * another (sub-workflow) reuses that template's live workflow when there is one. Every template is validated before
 * anything is written (`invalid_workflow` names the problem).
 */
export async function seedExampleWorkflows(database: Database): Promise<SeedReport> {
  const slugs = seedOrder();
  for (const slug of slugs) compileOrRefuse(await resolveTemplateSpec(slug, async () => "wf_validation_placeholder"));
  const seeded = await seededSlugs(database, slugs);
  const workflowIds: string[] = [];
  const created = new Map<string, string>();
  // A sub-workflow's template not seeded yet is seeded first (with its marker), so it is not created twice.
  const workflowIdOf = async (slug: string): Promise<string> => created.get(slug) ?? (seeded.has(slug) ? templateWorkflowId(database, slug) : seedOne(slug));
  const seedOne = async (slug: string): Promise<string> => {
    seeded.add(slug);
    const summary = templateSummary(slug);
    const { spec, plan } = compileOrRefuse(await resolveTemplateSpec(slug, workflowIdOf));
    const workflow = await createWorkflow(database, { name: summary.name, description: summary.description });
    await saveRevision(database, { workflowId: workflow.id, parentRevisionId: null, spec, layout: { nodes: {} }, specSha256: plan.hash, planId: plan.id, message: seedMarker(slug) });
    created.set(slug, workflow.id);
    workflowIds.push(workflow.id);
    return workflow.id;
  };
  for (const slug of slugs) if (!seeded.has(slug)) await seedOne(slug);
  return { seeded: workflowIds.length > 0, workflowIds };
}

const KEY = Symbol.for("rath.examplesSeeded");

type Holder = typeof globalThis & { [KEY]?: Promise<SeedReport> };

/**
 * Seeds at most once per process (server start, then every home page render asks again); a failed attempt is
 * forgotten so the next call tries again.
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

/**
 * The server's start-up step (instrumentation.ts): opens the database and seeds the examples. Never throws: when the
 * database cannot be opened or seeding fails, it logs why and the home page tries again on its next render.
 */
export async function seedExamplesAtStart(open: () => Promise<Database>, log: Pick<Console, "info" | "error"> = console): Promise<SeedReport | null> {
  try {
    const report = await ensureExamplesSeeded(await open());
    if (report.seeded) log.info(`[rath] seeded ${report.workflowIds.length} example workflow(s)`);
    return report;
  } catch (error) {
    log.error(`[rath] the example workflows were not seeded at start (the home page tries again): ${error instanceof Error ? error.message : String(error)}`);
    return null;
  }
}
