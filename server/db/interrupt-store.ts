/**
 * Interrupts: an approval node asks a person for a decision (`approve | edit | reject | respond`) and the run
 * waits. Creating and deciding each append their event (`run.interrupt.created`, `run.interrupt.decided`) in the
 * same transaction; a decided interrupt cannot be decided again.
 */
import { z } from "zod";
import { RathError } from "../../runtime/errors";
import type { Database } from "./database";
import type { Interrupt as InterruptRow } from "./generated/sqlite/client";
import { AnyJson, fromJsonText, toJsonText } from "./json-text";
import { rawStatements } from "./raw-sql";
import { appendRunEvents } from "./run-events";
import { newSortableId } from "./sortable-id";

/** Whether an interrupt still waits for its decision. */
export const InterruptStatus = z.enum(["pending", "decided"]);
export type InterruptStatus = z.infer<typeof InterruptStatus>;

/** A person's decision: approve as is, approve an edited value, reject (with a reason), or answer a question. */
export const InterruptDecision = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("approve"), by: z.string().optional() }),
  z.object({ kind: z.literal("edit"), value: z.unknown(), by: z.string().optional() }),
  z.object({ kind: z.literal("reject"), reason: z.string().optional(), by: z.string().optional() }),
  z.object({ kind: z.literal("respond"), response: z.string(), by: z.string().optional() }),
]);
export type InterruptDecision = z.infer<typeof InterruptDecision>;

/** A stored interrupt. */
export interface InterruptRecord {
  id: string;
  runId: string;
  nodeId: string;
  status: InterruptStatus;
  request: unknown;
  decision: InterruptDecision | null;
  createdAt: Date;
  decidedAt: Date | null;
}

function toInterruptRecord(row: InterruptRow): InterruptRecord {
  return {
    id: row.id,
    runId: row.runId,
    nodeId: row.nodeId,
    status: InterruptStatus.parse(row.status),
    request: fromJsonText(row.request, AnyJson, `request of interrupt ${row.id}`),
    decision: row.decision === null ? null : fromJsonText(row.decision, InterruptDecision, `decision of interrupt ${row.id}`),
    createdAt: row.createdAt,
    decidedAt: row.decidedAt,
  };
}

/** Input of `createInterrupt`: which node asks, and what it shows the person (JSON). */
export const CreateInterruptInput = z.object({
  runId: z.string().min(1),
  nodeId: z.string().min(1),
  request: z.unknown(),
});
export type CreateInterruptInput = z.input<typeof CreateInterruptInput>;

/** Creates a pending interrupt and appends `run.interrupt.created {interrupt_id, node_id}`. */
export async function createInterrupt(database: Database, input: CreateInterruptInput): Promise<InterruptRecord> {
  const parsed = CreateInterruptInput.parse(input);
  return database.transaction(async (transaction) => {
    const now = new Date();
    const row = await transaction.interrupt.create({
      data: {
        id: newSortableId("int"),
        runId: parsed.runId,
        nodeId: parsed.nodeId,
        status: "pending",
        request: toJsonText(parsed.request ?? null, "interrupt request"),
        createdAt: now,
      },
    });
    await appendRunEvents(rawStatements(database, transaction), parsed.runId, [
      { type: "run.interrupt.created", payload: { interrupt_id: row.id, node_id: parsed.nodeId } },
    ], now);
    return toInterruptRecord(row);
  });
}

/**
 * Records the decision of a pending interrupt and appends `run.interrupt.decided {interrupt_id, node_id, decision}`.
 * Refuses with `conflict` when it was already decided. Moving the run back to the queue is the engine's job.
 */
export async function decideInterrupt(database: Database, interruptId: string, decision: InterruptDecision): Promise<InterruptRecord> {
  const parsed = InterruptDecision.parse(decision);
  return database.transaction(async (transaction) => {
    const now = new Date();
    const updated = await transaction.interrupt.updateMany({
      where: { id: interruptId, status: "pending" },
      data: { status: "decided", decision: toJsonText(parsed, "interrupt decision"), decidedAt: now },
    });
    const row = await transaction.interrupt.findUnique({ where: { id: interruptId } });
    if (row === null) throw new RathError("not_found", `interrupt ${interruptId} not found`);
    if (updated.count !== 1) {
      throw new RathError("conflict", `interrupt ${interruptId} was already decided; expected status pending, found ${row.status}`);
    }
    await appendRunEvents(rawStatements(database, transaction), row.runId, [
      { type: "run.interrupt.decided", payload: { interrupt_id: row.id, node_id: row.nodeId, decision: parsed } },
    ], now);
    return toInterruptRecord(row);
  });
}

/** One interrupt, or null. */
export async function getInterrupt(database: Database, interruptId: string): Promise<InterruptRecord | null> {
  const row = await database.client.interrupt.findUnique({ where: { id: interruptId } });
  return row === null ? null : toInterruptRecord(row);
}

/** Pending interrupts, oldest first: of one run, or of every run (the review inbox). */
export async function listPendingInterrupts(database: Database, options: { runId?: string } = {}): Promise<InterruptRecord[]> {
  const rows = await database.client.interrupt.findMany({
    where: { status: "pending", ...(options.runId === undefined ? {} : { runId: options.runId }) },
    orderBy: { id: "asc" },
  });
  return rows.map(toInterruptRecord);
}
