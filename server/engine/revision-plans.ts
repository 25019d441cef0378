/**
 * Compiled plans of saved revisions, remembered per database handle: a revision never changes once saved, so every
 * execution of its runs (each claim of each run) would otherwise read and compile the same spec again.
 */
import { isRathError, type RathError } from "../../runtime/errors";
import type { Database } from "../db/database";
import { getRevision, type RevisionRecord } from "../db/workflow-store";
import { compileWorkflow } from "./spec/compile";
import type { Plan } from "./spec/plan";

/** A revision and its plan, the revision and why it does not compile, or null when there is no such revision. */
export type RevisionPlan = { revision: RevisionRecord; plan: Plan } | { revision: RevisionRecord; problem: RathError } | null;

/** Most plans remembered per handle; the oldest are forgotten first. */
const REMEMBERED_PLANS = 256;
const remembered = new WeakMap<Database["client"], Map<string, { revision: RevisionRecord; plan: Plan }>>();

/** The revision `revisionId` and its compiled plan (see the file comment). */
export async function revisionPlan(database: Database, revisionId: string): Promise<RevisionPlan> {
  let plans = remembered.get(database.client);
  const known = plans?.get(revisionId);
  if (known !== undefined) return known;
  const revision = await getRevision(database, revisionId);
  if (revision === null) return null;
  let plan: Plan;
  try {
    plan = compileWorkflow(revision.spec);
  } catch (error) {
    if (!isRathError(error)) throw error;
    return { revision, problem: error };
  }
  if (plans === undefined) {
    plans = new Map();
    remembered.set(database.client, plans);
  }
  if (plans.size >= REMEMBERED_PLANS) plans.delete(plans.keys().next().value as string);
  const entry = { revision, plan };
  plans.set(revisionId, entry);
  return entry;
}
