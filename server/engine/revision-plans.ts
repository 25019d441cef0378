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

/**
 * Plans by spec text, shared by every handle: compiling is a pure function of the spec, and revisions of one spec
 * (every run of `rath run`, a workflow saved again unchanged, the engine bench) compile to the same plan.
 */
const compiledBySpec = new Map<string, Plan | RathError>();

function compiledSpec(spec: unknown): Plan | RathError {
  const key = JSON.stringify(spec);
  const known = compiledBySpec.get(key);
  if (known !== undefined) return known;
  let compiled: Plan | RathError;
  try {
    compiled = compileWorkflow(spec);
  } catch (error) {
    if (!isRathError(error)) throw error;
    compiled = error;
  }
  if (compiledBySpec.size >= REMEMBERED_PLANS) compiledBySpec.delete(compiledBySpec.keys().next().value as string);
  compiledBySpec.set(key, compiled);
  return compiled;
}

/** The revision `revisionId` and its compiled plan (see the file comment). */
export async function revisionPlan(database: Database, revisionId: string): Promise<RevisionPlan> {
  let plans = remembered.get(database.client);
  const known = plans?.get(revisionId);
  if (known !== undefined) return known;
  const revision = await getRevision(database, revisionId);
  if (revision === null) return null;
  const compiled = compiledSpec(revision.spec);
  if (!("hash" in compiled)) return { revision, problem: compiled };
  const plan = compiled;
  if (plans === undefined) {
    plans = new Map();
    remembered.set(database.client, plans);
  }
  if (plans.size >= REMEMBERED_PLANS) plans.delete(plans.keys().next().value as string);
  const entry = { revision, plan };
  plans.set(revisionId, entry);
  return entry;
}
