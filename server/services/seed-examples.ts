/**
 * First-start seeding: a database that has never held a workflow gets the example workflows of
 * server/engine/spec/examples (each a workflow with one revision), so a new user has something to run.
 * The marker is the workflow table itself: workflows are only ever soft-deleted, so once the examples (or any
 * workflow) were created the table is never empty again, and deleting the examples never brings them back.
 */
import type { Database } from "../db/database";
import { listWorkflows } from "../db/workflow-store";
import { EXAMPLE_SPECS } from "../engine/spec/examples";
import { WorkflowSpec } from "../../runtime/workflow-spec/workflow-spec";
import { compileOrRefuse, createWorkflow } from "./workflow-service";

/** What `seedExampleWorkflows` did: whether it seeded, and the ids of the workflows it created (in order). */
export interface SeedReport {
  seeded: boolean;
  workflowIds: string[];
}

/**
 * Slugs in creation order. The home page lists the most recently updated workflow first, so the example a new
 * user should try first (hello-agent) is created last; examples added later follow in their own order.
 */
function seedOrder(): string[] {
  const preferred = ["approval", "selector-loop", "fork-merge-research", "hello-agent"];
  const others = Object.keys(EXAMPLE_SPECS).filter((slug) => !preferred.includes(slug));
  return [...others, ...preferred.filter((slug) => slug in EXAMPLE_SPECS)];
}

/**
 * Creates the example workflows when the database has never held a workflow (deleted ones count); otherwise
 * does nothing. An example spec that does not validate is refused (`invalid_workflow`) before anything is written.
 */
export async function seedExampleWorkflows(database: Database): Promise<SeedReport> {
  const existing = await listWorkflows(database, { includeDeleted: true, limit: 1 });
  if (existing.length > 0) return { seeded: false, workflowIds: [] };
  const examples = seedOrder().map((slug) => {
    const { spec, plan } = compileOrRefuse(EXAMPLE_SPECS[slug]);
    const description = WorkflowSpec.safeParse(spec).data?.description ?? "";
    return { spec, name: plan.name, description };
  });
  const workflowIds: string[] = [];
  for (const example of examples) {
    const created = await createWorkflow(database, { name: example.name, description: example.description, spec: example.spec });
    workflowIds.push(created.workflow.id);
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
