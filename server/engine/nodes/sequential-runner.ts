import type { Session } from "../../../runtime/session/session";
import type { Plan } from "../spec/plan";
import { executeNode } from "./execute-node";
import { deliverOutputs, planNode } from "./flow";
import type { ApprovalDecision, NodeEnv, NodeResult } from "./node-env";

/** Default step limit when neither the options nor the plan's settings give one. */
export const DEFAULT_MAX_STEPS = 1_000;

/** Options of `runPlanSequentially`. */
export interface SequentialRunOptions {
  /** A session handed to the Input node instead of creating one (how a sub-workflow receives its parent's). */
  readonly input?: Session;
  /** Answers approval interrupts in-process; without it (or when it returns null) the run stops `interrupted`. */
  readonly decide?: (interrupt: NonNullable<NodeResult["interrupt"]>) => Promise<ApprovalDecision | null>;
  readonly maxSteps?: number;
}

/** One executed step, in order. */
export interface SequentialStep {
  readonly nodeId: string;
  readonly inputs: Session[];
  readonly result: NodeResult;
}

/** How an in-process run ended, with every step it took and the sessions that reached Output nodes. */
export interface SequentialRunResult {
  readonly status: "succeeded" | "interrupted" | "failed";
  readonly steps: SequentialStep[];
  readonly outputs: { nodeId: string; session: Session; text: string }[];
  readonly interrupt?: { nodeId: string; prompt: string; payload: unknown };
  readonly failures: { nodeId: string; message: string }[];
}

interface Pending {
  readonly nodeId: string;
  readonly inputs: Session[];
}

/**
 * Runs a plan in this process, one step at a time in FIFO order (branches interleave, never run concurrently):
 * the engine's semantics without durability. A Merge runs once every edge of its join has delivered. Used for
 * sub-workflows, tests and headless runs without a database. When the run ends (not when it is interrupted),
 * the sandbox references of intermediate sessions are released; the caller releases the output sessions.
 */
export async function runPlanSequentially(plan: Plan, env: NodeEnv, options: SequentialRunOptions = {}): Promise<SequentialRunResult> {
  const maxSteps = options.maxSteps ?? plan.settings.maxSteps ?? DEFAULT_MAX_STEPS;
  const queue: Pending[] = [{ nodeId: plan.entry, inputs: options.input ? [options.input] : [] }];
  const arrivals: Record<string, Record<string, Session>> = {};
  const steps: SequentialStep[] = [];
  const outputs: SequentialRunResult["outputs"] = [];
  const failures: SequentialRunResult["failures"] = [];
  const deliver = (result: NodeResult): void => deliverOutputs(plan, result, (session) => session, arrivals, (step) => queue.push(step));

  while (queue.length > 0) {
    if (steps.length >= maxSteps) {
      failures.push({ nodeId: (queue[0] as Pending).nodeId, message: `the run reached its limit of ${maxSteps} steps` });
      return { status: "failed", steps, outputs, failures };
    }
    const pending = queue.shift() as Pending;
    let result = await executeNode(plan, pending.nodeId, pending.inputs, env);
    steps.push({ nodeId: pending.nodeId, inputs: pending.inputs, result });
    if (result.interrupt) {
      const decision = options.decide ? await options.decide(result.interrupt) : null;
      if (!decision) return { status: "interrupted", steps, outputs, failures, interrupt: { nodeId: pending.nodeId, ...result.interrupt } };
      result = await executeNode(plan, pending.nodeId, pending.inputs, env, { decision });
      steps.push({ nodeId: pending.nodeId, inputs: pending.inputs, result });
    }
    if (result.failure) failures.push({ nodeId: pending.nodeId, message: result.failure.message });
    if (result.output) {
      const session = result.outputs[0] as Session;
      outputs.push({ nodeId: pending.nodeId, session, text: result.output.text });
    }
    deliver(result);
  }
  for (const [nodeId, arrived] of Object.entries(arrivals)) {
    const missing = (planNode(plan, nodeId).join ?? []).filter((edgeId) => arrived[edgeId] === undefined);
    failures.push({ nodeId, message: `merge '${nodeId}' never ran: edges ${missing.join(", ")} delivered no session (their branches ended or failed)` });
  }
  await releaseIntermediate(steps, outputs, options.input);
  return { status: failures.length > 0 ? "failed" : "succeeded", steps, outputs, failures };
}

/**
 * Gives back the sandbox references of every session the run made except its final outputs (the caller owns
 * those, and the handed-in input). Snapshots of one session id share one reference, so each id is released once.
 */
async function releaseIntermediate(steps: readonly SequentialStep[], outputs: SequentialRunResult["outputs"], input: Session | undefined): Promise<void> {
  const kept = new Set<string>(outputs.map((output) => output.session.id));
  if (input) kept.add(input.id);
  const byId = new Map<string, Session>();
  for (const step of steps) for (const session of step.result.outputs) byId.set(session.id, session);
  for (const [id, session] of byId) if (!kept.has(id)) await session.release();
}
