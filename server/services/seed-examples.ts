/**
 * The example workflows of server/engine/spec/examples (made by template-catalog.ts), seeded when the studio starts
 * (instrumentation.ts, `seedExamplesAtStart`) and, as a fallback, when the home page renders — whatever the database
 * already holds, so a studio whose first workflow came through the API still gets them.
 *
 * Once per example, per database: each seeded workflow's first revision carries the message `Seeded example: <slug>`,
 * and an example is created only when no workflow, live or deleted, has a revision with that message — or, for a
 * database seeded before that marker existed, is named like the example. So restarting never duplicates an example,
 * one the user deleted (workflows are only soft-deleted) or renamed is never brought back, and an example added to a
 * later version of the studio is seeded on its first start. An example seeded before examples carried a stored layout
 * gets it then (seed-layouts.ts).
 */
import type { Database, TransactionClient } from "../db/database";
import { exclusiveTransaction } from "../db/exclusive-transaction";
import { findRevisionBySpecHashIn, insertWorkflowWithRevision } from "../db/workflow-store";
import { addStoredLayouts } from "./seed-layouts";
import { resolveTemplateSpec, templateLayout, templateSlugs, templateSummary } from "./template-catalog";
import { compileOrRefuse } from "./workflow-service";

/**
 * What `seedExampleWorkflows` did: whether it created any example, the ids of the workflows it created (in order),
 * and of the examples seeded earlier that it gave their stored layout (seed-layouts.ts).
 */
export interface SeedReport {
  seeded: boolean;
  workflowIds: string[];
  laidOut: string[];
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

/**
 * The examples already seeded into this database, slug -> workflow ids (by their marker, then, for a database seeded
 * before the marker, by name; oldest first); deleted workflows included.
 */
async function seededExamples(transaction: TransactionClient, slugs: readonly string[]): Promise<Map<string, string[]>> {
  const names = new Map(slugs.map((slug) => [templateSummary(slug).name, slug]));
  const marked = await transaction.workflowRevision.findMany({
    where: { message: { in: slugs.map(seedMarker) } },
    select: { message: true, workflowId: true },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  const named = await transaction.workflow.findMany({ where: { name: { in: [...names.keys()] } }, select: { name: true, id: true }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
  const seeded = new Map<string, string[]>();
  const add = (slug: string, workflowId: string) => {
    const ids = seeded.get(slug) ?? [];
    if (!ids.includes(workflowId)) seeded.set(slug, [...ids, workflowId]);
  };
  for (const slug of slugs) for (const row of marked) if (row.message === seedMarker(slug)) add(slug, row.workflowId);
  for (const row of named) add(names.get(row.name) as string, row.id);
  return seeded;
}

/** The name under which seeders take turns (exclusive-transaction.ts). */
const SEED_LOCK = "rath.seed-examples";

/**
 * Creates each example not seeded yet (see the file comment) as a workflow with one revision, laid out as stored
 * (examples/layouts: the editor opens it in that layout at once), and gives the examples seeded earlier without a
 * layout theirs (seed-layouts.ts). A template that calls
 * another (sub-workflow) reuses that template's live workflow when there is one. Every template is validated before
 * anything is written (`invalid_workflow` names the problem).
 *
 * Safe when several processes seed one database at once (two studios, a studio and a worker): the check and the
 * inserts are one transaction that only one process runs at a time, so the second finds the first's markers and
 * creates nothing — one copy of each example, one layout revision, and no process fails.
 */
export async function seedExampleWorkflows(database: Database): Promise<SeedReport> {
  const slugs = seedOrder();
  for (const slug of slugs) compileOrRefuse(await resolveTemplateSpec(slug, async () => "wf_validation_placeholder"));
  // Everything below is computed inside the transaction, which may run again on a busy SQLite file.
  const report = await exclusiveTransaction(database, SEED_LOCK, async (transaction) => {
    const before = await seededExamples(transaction, slugs);
    const seeded = new Set(before.keys());
    const ids: string[] = [];
    const created = new Map<string, string>();
    const insert = async (slug: string, message: string): Promise<string> => {
      const summary = templateSummary(slug);
      const { spec, plan } = compileOrRefuse(await resolveTemplateSpec(slug, workflowIdOf));
      const revision = { spec, layout: templateLayout(slug), specSha256: plan.hash, planId: plan.id, message };
      return insertWorkflowWithRevision(transaction, { name: summary.name, description: summary.description }, revision);
    };
    const seedOne = async (slug: string): Promise<string> => {
      seeded.add(slug);
      const id = await insert(slug, seedMarker(slug));
      created.set(slug, id);
      ids.push(id);
      return id;
    };
    // An example seeded before: its live workflow with the template's spec, else a new one (as templateWorkflowId does).
    const existing = async (slug: string): Promise<string> => {
      const { plan } = compileOrRefuse(await resolveTemplateSpec(slug, workflowIdOf));
      const found = await findRevisionBySpecHashIn(transaction, plan.hash);
      return found?.workflowId ?? insert(slug, "");
    };
    // A sub-workflow's template not seeded yet is seeded first (with its marker), so it is not created twice.
    async function workflowIdOf(slug: string): Promise<string> {
      return created.get(slug) ?? (seeded.has(slug) ? existing(slug) : seedOne(slug));
    }
    for (const slug of slugs) if (!seeded.has(slug)) await seedOne(slug);
    // The spec a template resolves to here: its sub-workflow references name the workflows seeded for them.
    const seededIdOf = async (slug: string) => created.get(slug) ?? before.get(slug)?.[0] ?? `unseeded:${slug}`;
    const templateHashOf = async (slug: string) => compileOrRefuse(await resolveTemplateSpec(slug, seededIdOf)).plan.hash;
    return { workflowIds: ids, laidOut: await addStoredLayouts(transaction, before, templateHashOf) };
  });
  return { seeded: report.workflowIds.length > 0, ...report };
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
    if (report.laidOut.length > 0) log.info(`[rath] gave ${report.laidOut.length} example workflow(s) seeded earlier their stored layout`);
    return report;
  } catch (error) {
    log.error(`[rath] the example workflows were not seeded at start (the home page tries again): ${error instanceof Error ? error.message : String(error)}`);
    return null;
  }
}
