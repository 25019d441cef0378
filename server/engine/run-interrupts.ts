/**
 * Approval interrupts from the engine's side: creating one for a suspended step (reusing the pending one a
 * crashed attempt already created), turning a stored decision into the node's decision, moving decided steps
 * back to the frontier, and `submitDecision`, which records a person's decision and requeues the waiting run.
 */
import { isRathError, RathError } from "../../runtime/errors";
import type { Database } from "../db/database";
import { createInterrupt, decideInterrupt, getInterrupt, listPendingInterrupts, type InterruptDecision, type InterruptRecord } from "../db/interrupt-store";
import type { RunRecord } from "../db/run-record";
import { getRun, transition } from "../db/run-store";
import type { ExecutionState } from "./execution-state";
import type { ApprovalDecision, NodeResult } from "./nodes";

type ApprovalInterrupt = NonNullable<NodeResult["interrupt"]>;

/**
 * The id of the pending interrupt for this approval: an existing pending one of the same node and session (left
 * by an execution that crashed before its checkpoint), or a new one (`run.interrupt.created`). With `timeoutMs`
 * the new interrupt's request carries `expiresAt` (ISO time, creation + timeoutMs).
 */
export async function ensureApprovalInterrupt(
  database: Database,
  runId: string,
  nodeId: string,
  interrupt: ApprovalInterrupt,
  options: { timeoutMs?: number | undefined; now?: Date } = {},
): Promise<string> {
  const pending = await listPendingInterrupts(database, { runId });
  const existing = pending.find((record) => record.nodeId === nodeId && sessionOf(record) === interrupt.payload.sessionId);
  if (existing) return existing.id;
  const now = options.now ?? new Date();
  const expiresAt = options.timeoutMs === undefined ? {} : { expiresAt: new Date(now.getTime() + options.timeoutMs).toISOString() };
  const created = await createInterrupt(database, { runId, nodeId, request: { prompt: interrupt.prompt, ...interrupt.payload, ...expiresAt } });
  return created.id;
}

/** When the interrupt's decision is due (its request's `expiresAt`), or null when it never expires. */
export function interruptExpiry(record: InterruptRecord): Date | null {
  const request = record.request;
  if (request === null || typeof request !== "object") return null;
  const value = (request as Record<string, unknown>).expiresAt;
  if (typeof value !== "string") return null;
  const expiry = new Date(value);
  return Number.isNaN(expiry.getTime()) ? null : expiry;
}

/** The earliest expiry of the still pending interrupts of the state's suspended steps, or null when none expires. */
export async function earliestApprovalExpiry(database: Database, state: ExecutionState): Promise<Date | null> {
  let earliest: Date | null = null;
  for (const step of state.suspended) {
    const record = await getInterrupt(database, step.interruptId);
    if (record === null || record.status !== "pending") continue;
    const expiry = interruptExpiry(record);
    if (expiry !== null && (earliest === null || expiry < earliest)) earliest = expiry;
  }
  return earliest;
}

function sessionOf(record: InterruptRecord): unknown {
  const request = record.request;
  return request !== null && typeof request === "object" ? (request as Record<string, unknown>).sessionId : undefined;
}

/** The stored decision in the approval node's terms (edit -> text, respond -> text). */
export function toApprovalDecision(decision: InterruptDecision): ApprovalDecision {
  switch (decision.kind) {
    case "approve":
      return { kind: "approve" };
    case "reject":
      return { kind: "reject", ...(decision.reason === undefined ? {} : { reason: decision.reason }) };
    case "edit":
      return { kind: "edit", text: typeof decision.value === "string" ? decision.value : JSON.stringify(decision.value) };
    case "respond":
      return { kind: "respond", text: decision.response };
  }
}

/** The decision of a decided interrupt; `conflict` when it is still pending. */
export async function approvalDecisionOf(database: Database, interruptId: string): Promise<ApprovalDecision> {
  const record = await getInterrupt(database, interruptId);
  if (record === null) throw new RathError("not_found", `interrupt ${interruptId} not found`);
  if (record.decision === null) throw new RathError("conflict", `interrupt ${interruptId} has no decision yet; expected a decided interrupt`);
  return toApprovalDecision(record.decision);
}

/** A state with every suspended step whose interrupt is decided moved to the front of the frontier, or null when none is. */
export async function takeDecidedSteps(database: Database, state: ExecutionState): Promise<ExecutionState | null> {
  const decided: ExecutionState["suspended"] = [];
  const still: ExecutionState["suspended"] = [];
  for (const step of state.suspended) {
    const record = await getInterrupt(database, step.interruptId);
    (record?.status === "decided" ? decided : still).push(step);
  }
  if (decided.length === 0) return null;
  return { ...state, suspended: still, ready: [...decided.map((step) => ({ ...step })), ...state.ready] };
}

/**
 * Records a person's decision on an interrupt and, when its run is waiting, puts the run back in the queue so a
 * worker resumes it from its checkpoint with the decision applied. A run that is still running picks the
 * decision up before it would wait. Returns the run as it is afterwards. A decision after the interrupt's expiry
 * is refused with `conflict` (the run times out instead).
 */
export async function submitDecision(database: Database, interruptId: string, decision: InterruptDecision, now: Date = new Date()): Promise<RunRecord> {
  const before = await getInterrupt(database, interruptId);
  const expiry = before === null || before.status !== "pending" ? null : interruptExpiry(before);
  if (expiry !== null && expiry <= now) {
    throw new RathError("conflict", `interrupt ${interruptId} expired at ${expiry.toISOString()}; expected a decision before then, found one at ${now.toISOString()}`);
  }
  const record = await decideInterrupt(database, interruptId, decision);
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const run = await getRun(database, record.runId);
    if (run === null) throw new RathError("not_found", `run ${record.runId} of interrupt ${interruptId} not found`);
    if (run.status !== "waiting") return run;
    try {
      return await transition(database, run.id, run.version, "queued", { reason: `interrupt ${interruptId} decided (${decision.kind})` });
    } catch (error) {
      if (!isRathError(error, "conflict")) throw error;
    }
  }
  throw new RathError("conflict", `run ${record.runId} kept changing while its interrupt was being decided; try again`);
}
