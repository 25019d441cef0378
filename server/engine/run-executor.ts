/**
 * Executes one claimed run step by step: loads and compiles its revision (refusing a plan hash other than the
 * run's), applies crash recovery to the effect ledger, resumes from the latest checkpoint, then repeatedly takes
 * the next ready node, executes it (with retries, a timeout and the effect ledger wired into tool dispatch) and
 * commits its sessions, chunks, events and the new checkpoint in one fenced transaction. The lease is renewed by
 * a heartbeat; losing it stops the execution without writing anything more. A run past its deadline ends
 * `timed_out` (checked before each step; a step in progress is aborted when the deadline passes).
 */
import { RathError, isRathError } from "../../runtime/errors";
import type { RuntimeEvent } from "../../runtime/events";
import { SESSION_OBSERVER_RESOURCE } from "../../runtime/agent/announce";
import { closeMcpPoolFor } from "../../runtime/mcp/run-pool";
import type { MemoryStore } from "../../runtime/memory/memory-store";
import type { Provider } from "../../runtime/providers/types";
import type { RunContext } from "../../runtime/context";
import type { Session } from "../../runtime/session/session";
import type { Database } from "../db/database";
import { recoverAfterCrash } from "../db/effect-ledger";
import { rememberStoredProviderKeys } from "../db/provider-settings-store";
import { refreshEnvironmentSecrets } from "../db/stored-secrets";
import { checkpointForResume, commitStepForCancelFlag, type CommitResult, type StepCommit } from "../db/run-commit";
import { LeaseLostError } from "../db/lease-lost";
import { heartbeat, type Claim } from "../db/run-lease";
import type { RunFailure, RunRecord } from "../db/run-record";
import { getRun, transition, type TransitionOptions } from "../db/run-store";
import { finishHeldRun } from "../db/run-finish";
import { getRevision, getWorkflow } from "../db/workflow-store";
import type { RunStatus } from "../db/run-status";
import { compileWorkflow } from "./spec/compile";
import type { Plan } from "./spec/plan";
import type { MemoryConfig } from "../../runtime/workflow-spec/node-configs";
import { DEFAULT_MAX_STEPS, executeNode, type NodeEnv, type NodeResult } from "./nodes";
import { deliverOutputs } from "./nodes/flow";
import { initialExecutionState, nextExecutionState, parseExecutionState, recordCompletedStep, referencedSessionIds, sessionMeta, type ExecutionState, type ReadyStep } from "./execution-state";
import { approvalDecisionOf, earliestApprovalExpiry, ensureApprovalInterrupt, takeDecidedSteps } from "./run-interrupts";
import { ledgerEffectHooks } from "./ledger-effect-hooks";
import { forkOriginOf, forkSeed, type ForkOrigin } from "./run-fork";
import type { ProviderResolver } from "./provider-resolver";
import { loadSession, storedChunkCounts } from "./session-loader";
import { runAttempts, type AttemptPolicy } from "./step-attempts";
import { revisionPlan } from "./revision-plans";
import { startDeadlineTimer } from "./deadline-timer";
import { StepRecorder, type StoredChunks } from "./step-recorder";
import { WorkflowMemoryStore } from "./workflow-memory-store";

/**
 * How often, at most, the run row is read between steps to see a cancel request (ms), when no step was committed
 * since the last check (a commit reports the cancel request itself).
 */
export const RUN_CHECK_INTERVAL_MS = 200;

/** Retries per step when the workflow settings give none. */
export const DEFAULT_STEP_RETRIES = 2;

/** Options of `executeClaimedRun`. */
export interface ExecutorOptions {
  resolveProvider: ProviderResolver;
  /** Lease length renewed by each heartbeat (ms). */
  leaseMs: number;
  /** Heartbeat period (ms); default a third of the lease. */
  heartbeatMs?: number;
  /** First retry backoff (ms, doubled per retry); default 500. */
  retryBaseMs?: number;
  /** Longest retry backoff (ms); default 30 000. */
  retryMaxMs?: number;
  /** Where Input nodes place their session (default: the runtime's default placement). */
  placement?: { backend: string; workingDir?: string };
  /**
   * Memory stores for Memory nodes, by config and workflow (the run's, or a sub-workflow's). Default: the
   * workflow's store of that name in this database (`WorkflowMemoryStore`), shared by every worker.
   */
  getMemoryStore?: (config: MemoryConfig, workflowId: string) => MemoryStore;
  /** When aborted (the worker is stopping), the run goes back to the queue before its next step. */
  shutdown?: AbortSignal;
  /** Live runtime events (including streaming deltas, which are not stored). Must not throw. */
  onEvent?: (runId: string, event: RuntimeEvent) => void;
  /** Where a refused write of a lost lease is reported, with the run id and both fencing tokens (default console.warn). */
  logLeaseLost?: (message: string) => void;
}

/** The log line for a write refused because the lease was lost: run id, the worker's token and the run's. */
export function leaseLostMessage(error: LeaseLostError, what: string): string {
  return `[rath worker] run ${error.runId}: ${what} refused, lease lost (${error.reason}): this worker's fencing token ${error.givenToken}, the run's token ${error.currentToken}, run status ${error.runStatus}; leaving the run to its current holder`;
}

/** How an execution ended: the run's status, or `abandoned` when the lease was lost (another worker owns it). */
export interface ExecutionOutcome {
  status: RunStatus | "abandoned";
  run: RunRecord | null;
}

type StopReason = "cancel" | "lease_lost" | "deadline";

/** The run's input as the Input node's text: a string, or `{text}` / `{input}` of an object. */
export function inputText(input: unknown): string | undefined {
  if (typeof input === "string") return input;
  if (input !== null && typeof input === "object") {
    const record = input as Record<string, unknown>;
    if (typeof record.text === "string") return record.text;
    if (typeof record.input === "string") return record.input;
  }
  return undefined;
}

/** Executes a claimed run until it is terminal, waiting, needs review, or the lease is lost. */
export async function executeClaimedRun(database: Database, claim: Claim, options: ExecutorOptions): Promise<ExecutionOutcome> {
  return new RunExecution(database, claim, options).execute();
}

class RunExecution {
  private readonly runId: string;
  private readonly token: number;
  private readonly stop = new AbortController();
  private readonly resources = new Map<string, unknown>();
  private readonly live = new Map<string, Session>();
  private readonly held = new Set<Session>();
  /** Sessions known to be stored, with their stored chunk counts (from the checkpoint and this execution's commits). */
  private readonly stored = new Map<string, number>();
  private lastRunCheck = 0;
  /** What the claim or the last successful commit said about the run (still ours, running): read once. */
  private committed: Pick<CommitResult, "cancelRequested"> | null;
  private recorder: StepRecorder | null = null;
  private plan!: Plan;
  private state!: ExecutionState;
  private seq = 0;
  private watermark = 0;
  private tokensUsed: number;
  private providers = new Map<string, Provider>();
  private readonly deadline: Date | null;

  constructor(
    private readonly database: Database,
    private readonly claim: Claim,
    private readonly options: ExecutorOptions,
  ) {
    this.runId = claim.run.id;
    this.token = claim.fencingToken;
    this.tokensUsed = claim.run.tokensUsed;
    this.committed = { cancelRequested: claim.run.cancelRequested };
    this.deadline = claim.run.deadlineAt;
    this.resources.set(SESSION_OBSERVER_RESOURCE, (session: Session) => this.recorder?.observe(session));
  }

  async execute(): Promise<ExecutionOutcome> {
    const heartbeatTimer = setInterval(() => void this.beat(), this.options.heartbeatMs ?? Math.max(50, Math.floor(this.options.leaseMs / 3)));
    // A deadline further than a timer can wait is left to the heartbeat (which checks it too).
    const deadlineTimer = this.deadline === null ? null : startDeadlineTimer(this.deadline.getTime(), () => this.abortAtDeadline());
    try {
      if (this.pastDeadline()) return await this.timeOut(undefined);
      return await this.executeSteps();
    } catch (error) {
      if (error instanceof LeaseLostError || (isRathError(error, "conflict") && this.stop.signal.reason === "lease_lost")) return { status: "abandoned", run: null };
      throw error;
    } finally {
      clearInterval(heartbeatTimer);
      deadlineTimer?.cancel();
      await closeMcpPoolFor(this.context()).catch(() => undefined);
      for (const session of this.held) await session.release().catch(() => undefined);
    }
  }

  private pastDeadline(now = Date.now()): boolean {
    return this.deadline !== null && this.deadline.getTime() <= now;
  }

  private abortAtDeadline(): void {
    if (!this.stop.signal.aborted && this.pastDeadline()) this.stop.abort("deadline" satisfies StopReason);
  }

  /** Ends the run as `timed_out` (`run_timeout`), naming the step it was at, if any. */
  private timeOut(nodeId: string | undefined): Promise<ExecutionOutcome> {
    const deadline = (this.deadline as Date).toISOString();
    const error = {
      code: "run_timeout",
      message: `run ${this.runId} did not finish by its deadline ${deadline}${nodeId === undefined ? "" : ` (it was at node '${nodeId}')`}`,
      deadline_at: deadline,
      ...(nodeId === undefined ? {} : { node_id: nodeId }),
    };
    return this.finish("timed_out", { reason: "run deadline passed", error, events: [{ type: "run.execution.timed_out", payload: error }] });
  }

  private async beat(): Promise<void> {
    this.abortAtDeadline();
    if (this.stop.signal.aborted) return;
    try {
      const result = await heartbeat(this.database, this.runId, this.token, this.options.leaseMs);
      if (result.cancelRequested) this.stop.abort("cancel" satisfies StopReason);
    } catch (error) {
      if (error instanceof LeaseLostError) {
        this.logLeaseLost(leaseLostMessage(error, "heartbeat"));
        this.stop.abort("lease_lost" satisfies StopReason);
      }
    }
  }

  private context(): RunContext {
    return { emit: () => undefined, resources: this.resources, signal: this.stop.signal };
  }

  private async executeSteps(): Promise<ExecutionOutcome> {
    const loaded = await this.loadPlan();
    if (loaded !== null) return loaded;
    const recovery = await recoverAfterCrash(this.database, this.runId);
    if (recovery.needsReview) {
      return this.finish("needs_review", {
        reason: "ambiguous effects after a crash",
        error: {
          code: "ambiguous_effects",
          message: `run ${this.runId} crashed while non-idempotent tool calls were in flight (${recovery.ambiguous.join(", ") || "from an earlier recovery"}); a person must settle them, then requeue or fail the run`,
          effects: recovery.ambiguous,
        },
      });
    }
    let checkpoint;
    try {
      checkpoint = await checkpointForResume(this.database, this.runId, this.plan.hash);
    } catch (error) {
      if (!isRathError(error, "conflict")) throw error;
      return this.fail({ code: "plan_hash_mismatch", message: error.message });
    }
    this.state = checkpoint === null ? initialExecutionState(this.plan) : parseExecutionState(checkpoint.state, `checkpoint ${checkpoint.seq} of run ${this.runId}`);
    this.seq = checkpoint?.seq ?? 0;
    this.watermark = checkpoint?.effectWatermark ?? 0;
    // What the run must never store: the environment's secrets and every saved provider key (stored-secrets.ts).
    refreshEnvironmentSecrets();
    await rememberStoredProviderKeys(this.database);
    const fork = checkpoint === null ? forkOriginOf(this.claim.run.input) : null;
    if (fork !== null) {
      const seeded = await this.seedFork(fork);
      if (seeded !== null) return seeded;
    }
    for (const meta of Object.values(this.state.sessions)) this.stored.set(meta.id, meta.chunkCount);
    try {
      await this.resolveProviders();
    } catch (error) {
      // A provider that is not configured (deleted in settings, a key that no longer decrypts) fails the run at once.
      if (!isRathError(error) || !error.isUserError) throw error;
      return this.fail({ code: error.code, message: error.message });
    }
    const maxSteps = this.plan.settings.maxSteps ?? DEFAULT_MAX_STEPS;
    for (;;) {
      // On SQLite every await of a step can be an already-resolved promise: without this turn of the event loop an
      // embedded worker would hold the web server (its requests, the live event streams) for the whole run.
      await yieldToEventLoop();
      const stopped = await this.checkBetweenSteps();
      if (stopped !== null) return stopped;
      if (this.state.ready.length === 0) {
        const resumed = await takeDecidedSteps(this.database, this.state);
        if (resumed === null) break;
        this.state = resumed;
        continue;
      }
      if (this.state.steps >= maxSteps) {
        return this.fail({ code: "max_steps_exceeded", message: `run ${this.runId} reached its limit of ${maxSteps} steps`, node_id: this.state.ready[0]?.nodeId });
      }
      const ended = await this.runStep(this.state.ready[0] as ReadyStep);
      if (ended !== null) return ended;
    }
    if (this.state.suspended.length > 0) return this.wait();
    const failure = this.state.failures[0];
    if (failure) return this.fail({ code: failure.code, message: failure.message, node_id: failure.nodeId });
    const output = { outputs: this.state.outputs, text: this.state.outputs[0]?.text ?? null };
    return this.finish("succeeded", {
      reason: "all steps done",
      output,
      events: [{ type: "run.execution.completed", payload: { steps: this.state.steps, outputs: this.state.outputs } }],
    });
  }

  /**
   * A forked run's first commit (run-fork.ts): the forked session (sharing the original's chunks), `run.forked`, and
   * checkpoint 1 holding the original's state around the fork point; nothing before it runs again.
   */
  private async seedFork(origin: ForkOrigin): Promise<ExecutionOutcome | null> {
    let seed;
    try {
      seed = await forkSeed(this.database, this.plan, origin);
    } catch (error) {
      if (!isRathError(error) || !error.isUserError) throw error;
      return this.fail({ code: error.code, message: `cannot fork from session ${origin.sessionId} at chunk ${origin.chunkIndex}: ${error.message}` });
    }
    await this.commit({
      sessions: [seed.session, ...seed.replayedSessions],
      chunks: seed.chunks,
      events: seed.events,
      checkpoint: { seq: 1, planHash: this.plan.hash, state: seed.state, nextNodes: seed.state.ready.map((ready) => ready.nodeId), pendingInterrupts: [], effectWatermark: 0 },
    });
    this.state = seed.state;
    this.seq = 1;
    return null;
  }

  /**
   * Suspends the run on its pending approvals. A decision that arrived while the run was still running did not
   * requeue it, so after moving to `waiting` the decisions are checked once more and the run requeued if needed.
   */
  private async wait(): Promise<ExecutionOutcome> {
    const expiry = await earliestApprovalExpiry(this.database, this.state);
    if (expiry !== null && expiry.getTime() <= Date.now() && (await takeDecidedSteps(this.database, this.state)) === null) {
      const error = { code: "approval_timeout", message: `run ${this.runId} waited for an approval that nobody decided by ${expiry.toISOString()}`, deadline_at: expiry.toISOString() };
      return this.finish("timed_out", { reason: "approval expired", error, events: [{ type: "run.execution.timed_out", payload: error }] });
    }
    const outcome = await this.finish("waiting", { reason: `waiting for ${this.state.suspended.length} approval(s)`, waitDeadlineAt: expiry });
    if (outcome.status !== "waiting" || outcome.run === null) return outcome;
    if ((await takeDecidedSteps(this.database, this.state)) === null) return outcome;
    try {
      const run = await transition(this.database, this.runId, outcome.run.version, "queued", { reason: "an approval was decided while the run was running" });
      return { status: run.status, run };
    } catch (error) {
      if (isRathError(error, "conflict")) return { status: "abandoned", run: await getRun(this.database, this.runId) };
      throw error;
    }
  }

  /** Loads and compiles the revision (remembered per handle: revisions never change); returns the failed outcome when it cannot run. */
  private async loadPlan(): Promise<ExecutionOutcome | null> {
    const loaded = await revisionPlan(this.database, this.claim.run.revisionId);
    if (loaded === null) return this.fail({ code: "not_found", message: `revision ${this.claim.run.revisionId} of run ${this.runId} not found` });
    if ("problem" in loaded) return this.fail({ code: loaded.problem.code, message: `revision ${loaded.revision.id} does not compile: ${loaded.problem.message}` });
    const revision = loaded.revision;
    this.plan = loaded.plan;
    if (this.plan.hash !== this.claim.run.planHash) {
      return this.fail({
        code: "plan_hash_mismatch",
        message: `run ${this.runId} was created for plan hash ${this.claim.run.planHash}, but revision ${revision.id} compiles to ${this.plan.hash}`,
      });
    }
    return null;
  }

  /** Resolves the providers a plan's nodes name (once each per execution), so `getProvider` can hand them out. */
  private async resolveProviders(plan: Plan = this.plan): Promise<void> {
    const names = new Set<string>();
    for (const { node } of Object.values(plan.nodes)) {
      if ((node.type === "agent" || node.type === "selector" || node.type === "compressor") && node.config.provider) names.add(node.config.provider);
    }
    for (const name of names) if (!this.providers.has(name)) this.providers.set(name, await this.options.resolveProvider(name));
  }

  /**
   * Between steps: stop when the lease was lost or the run changed hands; honour a cancel request. The run row
   * is read at most every RUN_CHECK_INTERVAL_MS (the heartbeat and the fenced commits catch the rest).
   */
  private async checkBetweenSteps(force = false): Promise<ExecutionOutcome | null> {
    const committed = this.committed;
    this.committed = null;
    if (!force && this.pastDeadline()) this.abortAtDeadline();
    if (!force && !this.stop.signal.aborted && !this.options.shutdown?.aborted) {
      // A fenced commit (or the claim) just proved the run is ours and running, and said whether to cancel.
      if (committed !== null) return committed.cancelRequested ? this.finish("cancelled", { reason: "cancel requested" }) : null;
      if (Date.now() - this.lastRunCheck < RUN_CHECK_INTERVAL_MS) return null;
    }
    this.lastRunCheck = Date.now();
    const run = await getRun(this.database, this.runId);
    if (run === null || run.fencingToken !== this.token || run.status !== "running" || this.stop.signal.reason === "lease_lost") {
      return { status: "abandoned", run };
    }
    if (run.cancelRequested || this.stop.signal.reason === "cancel") return this.finish("cancelled", { reason: "cancel requested" });
    if (this.stop.signal.reason === "deadline" || this.pastDeadline()) return this.timeOut(this.state?.ready[0]?.nodeId);
    if (this.options.shutdown?.aborted) return this.finish("queued", { reason: "worker stopped; another worker resumes from the last checkpoint" });
    return null;
  }

  /** The sessions `ids` names: those live in this execution at once, else each as `session` gives it. */
  private sessions(ids: readonly string[]): Session[] | Promise<Session[]> {
    const sessions: Session[] = [];
    for (const id of ids) {
      const live = this.live.get(id);
      if (live === undefined) return Promise.all(ids.map((each) => this.session(each)));
      sessions.push(live);
    }
    return sessions;
  }

  private async session(id: string): Promise<Session> {
    const live = this.live.get(id);
    if (live) return live;
    const meta = this.state.sessions[id];
    if (!meta) throw new RathError("internal", `checkpoint of run ${this.runId} refers to session ${id} without its metadata`);
    const session = await loadSession(this.database, meta);
    this.live.set(id, session);
    return session;
  }

  private env(recorder: StepRecorder, signal: AbortSignal, stepSeq: number, nodeId: string): NodeEnv & { effects: ReturnType<typeof ledgerEffectHooks> } {
    const onEvent = this.options.onEvent;
    const runId = this.runId;
    const input = inputText(this.claim.run.input);
    return {
      getProvider: (name) => {
        const provider = this.providers.get(name);
        if (!provider) throw new RathError("invalid_config", `unknown provider '${name}'; resolved: ${[...this.providers.keys()].join(", ") || "(none)"}`);
        return provider;
      },
      run: {
        emit: (event) => {
          recorder.emit(event);
          if (onEvent) {
            try {
              onEvent(runId, event);
            } catch {
              // A live listener's failure is its own.
            }
          }
        },
        signal,
        resources: this.resources,
      },
      ...(input === undefined ? {} : { input }),
      ...(this.options.placement ? { placement: this.options.placement } : {}),
      workflowId: this.claim.run.workflowId,
      getMemoryStore: (config, workflowId) => this.memoryStore(config, workflowId ?? this.claim.run.workflowId),
      effects: ledgerEffectHooks(this.database, { runId, nodeId, stepSeq }),
      loadSubworkflow: (workflowId, revisionId) => this.loadSubworkflow(workflowId, revisionId),
    };
  }

  private memoryStore(config: MemoryConfig, workflowId: string): MemoryStore {
    if (this.options.getMemoryStore) return this.options.getMemoryStore(config, workflowId);
    return new WorkflowMemoryStore(this.database, workflowId, config.store);
  }

  private async loadSubworkflow(workflowId: string, revisionId?: string): Promise<unknown> {
    const id = revisionId ?? (await getWorkflow(this.database, workflowId))?.headRevisionId ?? null;
    const revision = id === null ? null : await getRevision(this.database, id);
    if (revision === null || revision.workflowId !== workflowId) {
      throw new RathError("not_found", `sub-workflow ${workflowId}${revisionId ? ` revision ${revisionId}` : ""} not found (or it has no saved revision)`);
    }
    // The sub-workflow may name providers its caller does not use.
    await this.resolveProviders(compileWorkflow(revision.spec));
    return revision.spec;
  }

  private policy(): AttemptPolicy {
    const settings = this.plan.settings;
    return {
      retries: settings.stepRetries ?? DEFAULT_STEP_RETRIES,
      timeoutMs: settings.stepTimeoutMs,
      baseBackoffMs: this.options.retryBaseMs ?? 500,
      maxBackoffMs: this.options.retryMaxMs ?? 30_000,
    };
  }

  /** Executes one ready step and commits it; returns an outcome when the run ends here. */
  private async runStep(step: ReadyStep): Promise<ExecutionOutcome | null> {
    const stepSeq = this.seq + 1;
    const startedAt = new Date();
    const inputs = await this.sessions(step.inputs);
    const decision = step.interruptId === undefined ? undefined : await approvalDecisionOf(this.database, step.interruptId);
    let settled = 0;
    const result = await runAttempts(
      this.policy(),
      this.stop.signal,
      async (_number, signal) => {
        const recorder = new StepRecorder(step.nodeId);
        this.recorder = recorder;
        const env = this.env(recorder, signal, stepSeq, step.nodeId);
        try {
          const node = await executeNode(this.plan, step.nodeId, inputs, env, decision === undefined ? {} : { decision });
          return { node, recorder };
        } finally {
          settled += env.effects.settledCount();
        }
      },
      async (number, failure, retryInMs) => {
        await this.commit({
          events: [
            {
              type: "run.step.attempt.failed",
              payload: { node_id: step.nodeId, step_seq: stepSeq, attempt: number, max_attempts: this.policy().retries + 1, code: failure.code, message: failure.message, retry_in_ms: retryInMs < 0 ? null : retryInMs },
            },
          ],
        });
      },
    );
    this.recorder = null;
    if (result.kind === "aborted") return this.checkBetweenSteps(true).then((outcome) => outcome ?? { status: "abandoned", run: null });
    if (result.kind === "failed") {
      return this.fail({
        code: result.failure.code,
        message: `step ${stepSeq} (node '${step.nodeId}') failed after ${result.attempts} attempt(s): ${result.failure.message}`,
        node_id: step.nodeId,
      });
    }
    return this.commitStepResult(step, stepSeq, result.value.node, result.value.recorder, settled, startedAt);
  }

  private async commitStepResult(
    step: ReadyStep,
    stepSeq: number,
    result: NodeResult,
    recorder: StepRecorder,
    settled: number,
    startedAt: Date,
  ): Promise<ExecutionOutcome | null> {
    const next = nextExecutionState(this.state);
    next.ready.shift();
    recordCompletedStep(next, step.nodeId);
    for (const output of result.outputs) {
      this.live.set(output.id, output);
      this.held.add(output);
    }
    if (result.interrupt) {
      const planNode = this.plan.nodes[step.nodeId]?.node;
      const timeoutMs = planNode?.type === "approval" ? planNode.config.timeoutMs : undefined;
      const interruptId = await ensureApprovalInterrupt(this.database, this.runId, step.nodeId, result.interrupt, { timeoutMs });
      next.suspended.push({ nodeId: step.nodeId, inputs: step.inputs, interruptId });
    }
    if (result.output) next.outputs.push({ nodeId: step.nodeId, sessionId: result.output.sessionId, text: result.output.text });
    if (result.failure) next.failures.push({ nodeId: step.nodeId, code: result.failure.code, message: result.failure.message });
    if (result.route) recorder.addEvent({ type: "run.route.taken", payload: { node_id: step.nodeId, chosen: result.route.chosen, target: result.route.target } });
    this.deliver(next, result);
    // The step as a timeline entry, and what runs next (with its inputs), so a live view can show the running node.
    recorder.addEvent({
      type: "run.step.completed",
      payload: {
        node_id: step.nodeId,
        step_seq: stepSeq,
        started_at: startedAt.toISOString(),
        ended_at: new Date().toISOString(),
        inputs: step.inputs,
        outputs: result.outputs.map((output) => output.id),
        next: next.ready.slice(0, 16).map((ready) => ({ node_id: ready.nodeId, inputs: ready.inputs })),
        waiting: result.interrupt !== undefined,
      },
    });
    for (const id of referencedSessionIds(next)) {
      const session = this.live.get(id) ?? (await this.session(id));
      next.sessions[id] = sessionMeta(session);
    }
    const touched = [...new Set([...recorder.sessionIds(), ...result.outputs.map((output) => output.id)])];
    const checkpoint = {
      seq: stepSeq,
      planHash: this.plan.hash,
      state: next,
      nextNodes: next.ready.map((ready) => ready.nodeId),
      pendingInterrupts: next.suspended.map((suspended) => suspended.interruptId),
      effectWatermark: this.watermark + settled,
    };
    const known = new Map(touched.filter((id) => this.stored.has(id)).map((id) => [id, this.stored.get(id) as number]));
    const storedParent = (id: string): StoredChunks | undefined => {
      const live = this.live.get(id);
      const storedCount = this.stored.get(id);
      return live === undefined || storedCount === undefined ? undefined : { chunks: live.chunks, storedCount };
    };
    let rows = recorder.toCommit(result.outputs, known, storedParent);
    try {
      await this.commit({ sessions: rows.sessions, chunks: rows.chunks, events: rows.events, tokensUsed: rows.tokensUsed, checkpoint });
    } catch (error) {
      // A session stored earlier that this execution did not know about: ask the database and commit again.
      if (!isRathError(error, "conflict") || this.stop.signal.aborted) throw error;
      rows = recorder.toCommit(result.outputs, await storedChunkCounts(this.database, touched), storedParent);
      await this.commit({ sessions: rows.sessions, chunks: rows.chunks, events: rows.events, tokensUsed: rows.tokensUsed, checkpoint });
    }
    this.watermark += settled;
    for (const session of rows.sessions) this.stored.set(session.id, session.chunkCount);
    for (const chunk of rows.chunks) this.stored.set(chunk.sessionId, Math.max(this.stored.get(chunk.sessionId) ?? 0, chunk.index + 1));
    this.state = next;
    this.seq = stepSeq;
    this.tokensUsed += rows.tokensUsed;
    const budget = this.claim.run.tokenBudget ?? this.plan.settings.tokenBudget;
    if (budget !== undefined && budget !== null && this.tokensUsed > budget) {
      return this.fail({ code: "budget_exceeded", message: `run ${this.runId} used ${this.tokensUsed} tokens, over its budget of ${budget}`, node_id: step.nodeId });
    }
    return null;
  }

  /** Hands each output session to the next steps (`deliverOutputs`: a merge waits until every edge of its join delivered). */
  private deliver(state: ExecutionState, result: NodeResult): void {
    deliverOutputs(this.plan, result, (session) => session.id, state.joins, (step) => state.ready.push(step));
  }

  private async commit(commit: StepCommit): Promise<void> {
    try {
      const result = await commitStepForCancelFlag(this.database, this.runId, this.token, commit);
      this.committed = { cancelRequested: result.cancelRequested || (this.committed?.cancelRequested ?? false) };
    } catch (error) {
      if (error instanceof LeaseLostError) {
        this.logLeaseLost(leaseLostMessage(error, "step commit"));
        this.stop.abort("lease_lost" satisfies StopReason);
      }
      throw error;
    }
  }

  private fail(error: RunFailure & { node_id?: string | undefined }): Promise<ExecutionOutcome> {
    const failure = Object.fromEntries(Object.entries(error).filter(([, value]) => value !== undefined)) as RunFailure;
    return this.finish("failed", { reason: failure.message, error: failure, events: [{ type: "run.execution.failed", payload: failure }] });
  }

  /**
   * Moves the run out of `running`, fenced by this execution's token: one write while the run is still running with
   * it (run-finish.ts); else the run is read to tell why (abandoned, or the refused transition is reported).
   */
  private async finish(to: RunStatus, options: Omit<TransitionOptions, "fencingToken">): Promise<ExecutionOutcome> {
    let finished: RunRecord | null = null;
    try {
      finished = await finishHeldRun(this.database, this.runId, this.token, to, options);
    } catch (error) {
      // An illegal transition: the path below reports it as it always did.
      if (!isRathError(error, "conflict")) throw error;
    }
    if (finished !== null) return { status: finished.status, run: finished };
    const current = await getRun(this.database, this.runId);
    if (current === null || current.fencingToken !== this.token || current.status !== "running") return { status: "abandoned", run: current };
    try {
      const run = await transition(this.database, this.runId, current.version, to, { ...options, fencingToken: this.token });
      return { status: run.status, run };
    } catch (error) {
      if (error instanceof LeaseLostError) this.logLeaseLost(leaseLostMessage(error, `status change to ${to}`));
      if (isRathError(error, "conflict")) return { status: "abandoned", run: await getRun(this.database, this.runId) };
      throw error;
    }
  }

  private logLeaseLost(message: string): void {
    (this.options.logLeaseLost ?? console.warn)(message);
  }
}

/** Resolves after the event loop has run its pending I/O callbacks and timers once. */
function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
