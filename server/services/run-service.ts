/**
 * Runs as the API offers them: start a run of a revision (the head by default, or of an inline spec), with
 * idempotency keys; read, list, cancel and resume runs; decide interrupts; page events. Execution itself is
 * the engine's: every change that queues a run wakes the executor.
 */
import { createHash } from "node:crypto";
import { z } from "zod";
import { RathError } from "../../runtime/errors";
import type { Database } from "../db/database";
import { listEffects } from "../db/effect-ledger";
import { getInterrupt, InterruptDecision, listPendingInterrupts } from "../db/interrupt-store";
import { eventsPage } from "../db/run-events";
import type { RunRecord } from "../db/run-record";
import { createRun, getRun, listRuns, requestCancel, transition } from "../db/run-store";
import { runTimeout, settingsOfSpec } from "../engine/run-deadline";
import { submitDecision } from "../engine/run-interrupts";
import { resolveReview, ReviewResolution } from "../engine/run-review";
import { RunStatus } from "../db/run-status";
import type { WorkflowSettings } from "../../runtime/workflow-spec/workflow-spec";
import { assertRunInputSize } from "./payload-limits";
import type { RunExecutor } from "./run-executor";
import { effectView, interruptView, runEventView, runView, type EffectView, type InterruptView, type RunEventView, type RunView } from "./views";
import { ensureRevisionForSpec, requireRevision, requireWorkflow } from "./workflow-service";

/** Input of `startRun`: a saved workflow (its head revision unless one is named) or an inline spec. */
export const StartRunRequest = z
  .object({
    workflowId: z.string().min(1).optional(),
    revisionId: z.string().min(1).optional(),
    spec: z.unknown().optional(),
    input: z.unknown().default(null),
    idempotencyKey: z.string().min(1).max(200).optional(),
    priority: z.number().int().min(-1000).max(1000).default(0),
    tokenBudget: z.number().int().positive().optional(),
    /** The run times out this many ms after it was queued (default: the workflow's `settings.runTimeoutMs`). */
    timeoutMs: z.number().int().positive().optional(),
  })
  .refine((request) => (request.workflowId === undefined) !== (request.spec === undefined), {
    message: "expected exactly one of workflowId or spec",
    path: ["workflowId"],
  })
  .refine((request) => request.revisionId === undefined || request.workflowId !== undefined, {
    message: "revisionId needs workflowId",
    path: ["revisionId"],
  });
export type StartRunRequest = z.input<typeof StartRunRequest>;

/** A started run, and whether this call created it (false: the idempotency key named an existing run). */
export interface StartedRun {
  run: RunView;
  created: boolean;
}

/** JSON with object keys sorted at every level, so equal requests hash equally whatever their key order. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** The request's fingerprint: everything the caller asked for except the idempotency key itself. */
function requestFingerprint(request: z.output<typeof StartRunRequest>): string {
  const { idempotencyKey: _key, ...asked } = request;
  return createHash("sha256").update(canonicalJson(asked)).digest("hex");
}

/**
 * Queues a run; the same (workflow, idempotency key) returns the first run unchanged, and the same key with a
 * different request is refused with `idempotency_key_reused` (HTTP 422).
 */
export async function startRun(database: Database, executor: RunExecutor, request: StartRunRequest): Promise<StartedRun> {
  const parsed = StartRunRequest.parse(request);
  assertRunInputSize(parsed.input);
  let workflowId: string;
  let revisionId: string;
  let planHash: string;
  let settings: WorkflowSettings | undefined;
  if (parsed.workflowId === undefined) {
    const ensured = await ensureRevisionForSpec(database, parsed.spec);
    workflowId = ensured.workflow.id;
    revisionId = ensured.revision.id;
    planHash = ensured.plan.hash;
    settings = ensured.plan.settings;
  } else {
    const workflow = await requireWorkflow(database, parsed.workflowId);
    const chosen = parsed.revisionId ?? workflow.headRevisionId;
    if (chosen === null) {
      throw new RathError("invalid_argument", `workflow ${workflow.id} has no saved revision yet; save a revision before starting a run`);
    }
    const revision = await requireRevision(database, workflow.id, chosen);
    workflowId = workflow.id;
    revisionId = revision.id;
    planHash = revision.specSha256;
    settings = settingsOfSpec(revision.spec);
  }
  const { run, created } = await createRun(database, {
    ...(parsed.idempotencyKey === undefined ? {} : { requestFingerprint: requestFingerprint(parsed) }),
    workflowId,
    revisionId,
    planHash,
    input: parsed.input,
    priority: parsed.priority,
    ...(parsed.idempotencyKey === undefined ? {} : { idempotencyKey: parsed.idempotencyKey }),
    ...(parsed.tokenBudget === undefined ? {} : { tokenBudget: parsed.tokenBudget }),
    ...runTimeout(parsed.timeoutMs, settings),
  });
  if (created) executor.wake(run.id);
  return { run: runView(run), created };
}

/** A run, or `not_found`. */
export async function requireRun(database: Database, runId: string): Promise<RunRecord> {
  const run = await getRun(database, runId);
  if (run === null) throw new RathError("not_found", `run ${runId} not found`);
  return run;
}

/** A run with its pending interrupts (what the run view shows). */
export async function getRunDetail(database: Database, runId: string): Promise<{ run: RunView; pendingInterrupts: InterruptView[] }> {
  const run = await requireRun(database, runId);
  const pending = await listPendingInterrupts(database, { runId });
  return { run: runView(run), pendingInterrupts: pending.map(interruptView) };
}

/** Filters and paging of `listRunsPage`. */
export const ListRunsRequest = z.object({
  workflowId: z.string().min(1).optional(),
  /** Part of the run id or of its workflow's name (case-insensitive on both providers; ASCII only on SQLite). */
  search: z.string().trim().min(1).max(200).optional(),
  status: z.union([RunStatus, z.array(RunStatus).min(1)]).optional(),
  limit: z.number().int().min(1).max(200).default(50),
  cursor: z.string().min(1).optional(),
});
export type ListRunsRequest = z.input<typeof ListRunsRequest>;

/** A page of runs, newest first; `nextCursor` is null on the last page. */
export async function listRunsPage(database: Database, request: ListRunsRequest = {}): Promise<{ runs: RunView[]; nextCursor: string | null }> {
  const page = await listRuns(database, ListRunsRequest.parse(request));
  return { runs: page.runs.map(runView), nextCursor: page.nextCursor };
}

/** Cancels a run: at once unless it is running (then its worker stops at the next heartbeat). */
export async function cancelRun(database: Database, runId: string): Promise<RunView> {
  return runView(await requestCancel(database, runId, "cancelled through the API"));
}

/**
 * Puts a run back in the queue where SPEC §6 allows it: `needs_review -> queued` once no tool call is left
 * ambiguous (otherwise use `reviewRun`), and `waiting -> queued` once no interrupt is pending. Anything else is a
 * `conflict` naming the status.
 */
export async function resumeRun(database: Database, executor: RunExecutor, runId: string): Promise<RunView> {
  const run = await requireRun(database, runId);
  if (run.status === "needs_review") {
    const resumed = await resolveReview(database, runId, { action: "requeue", effects: [] });
    executor.wake(runId);
    return runView(resumed);
  }
  if (run.status === "waiting") {
    const pending = await listPendingInterrupts(database, { runId });
    if (pending.length > 0) {
      throw new RathError(
        "conflict",
        `run ${runId} waits for ${pending.length} decision(s) (interrupt ${pending.map((item) => item.id).join(", ")}); decide them instead of resuming`,
      );
    }
  } else {
    throw new RathError("conflict", `run ${runId} is ${run.status}; only a run that needs review or waits without pending decisions can be resumed`);
  }
  const resumed = await transition(database, runId, run.version, "queued", { reason: "resumed through the API" });
  executor.wake(runId);
  return runView(resumed);
}

/** Input of `decideInterrupt`: the decision and, for edit / reject / respond, its value. */
export const DecideInterruptRequest = z.object({
  interruptId: z.string().min(1),
  decision: z.enum(["approve", "edit", "reject", "respond"]),
  payload: z.unknown().optional(),
  by: z.string().max(200).optional(),
});
export type DecideInterruptRequest = z.input<typeof DecideInterruptRequest>;

function toStoredDecision(request: z.infer<typeof DecideInterruptRequest>): InterruptDecision {
  const by = request.by === undefined ? {} : { by: request.by };
  switch (request.decision) {
    case "approve":
      return { kind: "approve", ...by };
    case "edit":
      if (request.payload === undefined) throw new RathError("invalid_argument", "an edit decision needs a payload (the edited text)");
      return { kind: "edit", value: request.payload, ...by };
    case "reject":
      if (request.payload !== undefined && typeof request.payload !== "string") {
        throw new RathError("invalid_argument", `a reject decision takes an optional reason string as payload; found ${typeof request.payload}`);
      }
      return { kind: "reject", ...(request.payload === undefined ? {} : { reason: request.payload }), ...by };
    case "respond":
      if (typeof request.payload !== "string") {
        throw new RathError("invalid_argument", `a respond decision needs the response text as payload; found ${request.payload === undefined ? "none" : typeof request.payload}`);
      }
      return { kind: "respond", response: request.payload, ...by };
  }
}

/** Records a person's decision; a waiting run goes back to the queue and the executor is woken. */
export async function decideInterrupt(database: Database, executor: RunExecutor, request: DecideInterruptRequest): Promise<RunView> {
  const parsed = DecideInterruptRequest.parse(request);
  const decision = toStoredDecision(parsed);
  const interrupt = await getInterrupt(database, parsed.interruptId);
  if (interrupt === null) throw new RathError("not_found", `interrupt ${parsed.interruptId} not found`);
  const run = await submitDecision(database, parsed.interruptId, decision);
  if (run.status === "queued") executor.wake(run.id);
  return runView(run);
}

/** Input of `runEvents`: events after `afterSeq`, at most `limit`. */
export const RunEventsRequest = z.object({
  runId: z.string().min(1),
  afterSeq: z.number().int().nonnegative().default(0),
  limit: z.number().int().min(1).max(1000).default(200),
  /** Only events of these types (e.g. the run view's timeline reads `run.step.completed` and failures). */
  types: z.array(z.string().min(1)).min(1).max(32).optional(),
});
export type RunEventsRequest = z.input<typeof RunEventsRequest>;

/** A page of a run's events in order; `nextAfterSeq` is what to pass next time. */
export async function runEvents(
  database: Database,
  request: RunEventsRequest,
): Promise<{ events: RunEventView[]; nextAfterSeq: number; lastSeq: number; status: RunStatus }> {
  const parsed = RunEventsRequest.parse(request);
  const run = await requireRun(database, parsed.runId);
  const events = await eventsPage(database, parsed.runId, { afterSeq: parsed.afterSeq, limit: parsed.limit, ...(parsed.types === undefined ? {} : { types: parsed.types }) });
  const last = events[events.length - 1];
  return { events: events.map(runEventView), nextAfterSeq: last?.seq ?? parsed.afterSeq, lastSeq: run.lastEventSeq, status: run.status };
}

/** The run's tool calls with side effects (the effect ledger), oldest first: what a reviewer settles. */
export async function runEffects(database: Database, runId: string): Promise<EffectView[]> {
  await requireRun(database, runId);
  return (await listEffects(database, runId)).map(effectView);
}

/** Input of `reviewRun`: for a `needs_review` run, requeue with an outcome for every ambiguous call, or fail it. */
export const ReviewRunRequest = z.object({ runId: z.string().min(1), resolution: ReviewResolution });
export type ReviewRunRequest = z.input<typeof ReviewRunRequest>;

/** Applies a person's review of a run whose crash left tool calls ambiguous; a requeued run wakes the executor. */
export async function reviewRun(database: Database, executor: RunExecutor, request: ReviewRunRequest): Promise<RunView> {
  const parsed = ReviewRunRequest.parse(request);
  await requireRun(database, parsed.runId);
  const run = await resolveReview(database, parsed.runId, parsed.resolution);
  if (run.status === "queued") executor.wake(run.id);
  return runView(run);
}

/** Pending interrupts, oldest first: of one run, or of every run (the review inbox). */
export async function pendingInterrupts(database: Database, options: { runId?: string } = {}): Promise<InterruptView[]> {
  if (options.runId !== undefined) await requireRun(database, options.runId);
  return (await listPendingInterrupts(database, options)).map(interruptView);
}
