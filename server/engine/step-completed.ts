/**
 * The payload of a `run.step.completed` event as the executor writes it (run-executor.ts), for the readers of a
 * run's record: forks (which step made a session, which steps replay, the fork's timeline).
 */
import { z } from "zod";

/** One committed step: node, checkpoint seq, input and output sessions, whether it suspended, when it ran. */
export const StepCompletedPayload = z.object({
  node_id: z.string(),
  step_seq: z.number().int().positive(),
  inputs: z.array(z.string()),
  outputs: z.array(z.string()),
  waiting: z.boolean().optional(),
  started_at: z.string().optional(),
  ended_at: z.string().optional(),
});
export type StepCompletedPayload = z.infer<typeof StepCompletedPayload>;
