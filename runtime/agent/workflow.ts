import { defaultContext, type Forward, type RunContext } from "../context";
import { RathError } from "../errors";
import type { Session } from "../session/session";
import { announceSession } from "./announce";
import { releaseIntermediates } from "./release-intermediates";

/** Anything with `forward`; a name (when present) labels its workflow step events. */
export type Component = Forward & { readonly name?: string };

function stepName(component: Component, index: number): string {
  return component.name ?? `step ${index}`;
}

async function runStep(workflow: string, step: string, component: Component, session: Session, context: RunContext): Promise<Session> {
  if (context.signal?.aborted) throw new RathError("aborted", `workflow '${workflow}' was aborted before step '${step}'`);
  context.emit({ type: "workflow.step.started", workflow, step });
  const result = await component.forward(session, context);
  context.emit({ type: "workflow.step.ended", workflow, step, session_id: result.id });
  return result;
}

/**
 * A composition of components (PyTorch's nn.Module): `new Workflow(name, steps)` runs the steps in order,
 * each receiving the previous one's output. A workflow with no steps is the identity.
 */
export class Workflow implements Forward {
  readonly name: string;
  readonly steps: readonly Component[];
  private readonly body: ((session: Session, context: RunContext) => Promise<Session>) | null;

  constructor(name: string, steps: readonly Component[] = [], body: ((session: Session, context: RunContext) => Promise<Session>) | null = null) {
    this.name = name;
    this.steps = Object.freeze([...steps]);
    this.body = body;
  }

  /** The identity workflow: what a selector's -1 (stop) chooses. */
  static empty(): Workflow {
    return EMPTY_WORKFLOW;
  }

  /** True for the identity workflow (no steps, no body). */
  get isEmpty(): boolean {
    return this.steps.length === 0 && this.body === null;
  }

  async forward(session: Session, context?: RunContext): Promise<Session> {
    const run = context ?? defaultContext();
    if (this.body) return this.body(session, run);
    let current = session;
    const intermediates: Session[] = [];
    try {
      for (const [index, step] of this.steps.entries()) {
        const next = await runStep(this.name, stepName(step, index), step, current, run);
        intermediates.push(current);
        current = next;
      }
    } catch (error) {
      await releaseIntermediates([...intermediates, current], [session]);
      throw error;
    }
    await releaseIntermediates(intermediates, [session, current]);
    return current;
  }
}

const EMPTY_WORKFLOW = new Workflow("empty");

/** Options of `parallel`. */
export interface ParallelOptions {
  /** Combines the branch outputs (in branch order); default: a left fold of `Session.merge`. */
  merge?: (sessions: Session[], input: Session) => Session;
}

/**
 * Runs each branch on its own fork of the input, concurrently, and merges the outputs in branch order
 * (by default `a.merge(b).merge(c)...`, SPEC §2 merge semantics). The forks' and branch outputs' sandbox
 * references are released once the result holds its own.
 */
export function parallel(name: string, branches: readonly Component[], options: ParallelOptions = {}): Workflow {
  if (branches.length === 0) throw new RathError("invalid_workflow", `parallel '${name}' needs at least one branch; found none`);
  return new Workflow(name, branches, async (session, context) => {
    const forks = branches.map(() => session.fork());
    const outputs = await Promise.all(
      branches.map((branch, index) => {
        const fork = forks[index] as Session;
        announceSession(context, fork);
        return runStep(name, stepName(branch, index), branch, fork, context);
      }),
    );
    let result: Session;
    const partialMerges: Session[] = [];
    if (options.merge) {
      result = options.merge(outputs, session);
    } else {
      const [first, ...rest] = outputs as [Session, ...Session[]];
      result = first;
      for (const output of rest) {
        if (result !== first) partialMerges.push(result);
        result = result.merge(output);
        announceSession(context, result);
      }
    }
    await releaseIntermediates([...forks, ...outputs, ...partialMerges], [session, result]);
    return result;
  });
}

/** What a loop needs from a selector (the Selector class provides it). */
export interface Decider {
  readonly name: string;
  decide(session: Session, context?: RunContext): Promise<{ session: Session; chosen: number; workflow: Component }>;
}

/** Options of `loop`. */
export interface LoopOptions {
  /** Runs at the start of every iteration (optional). */
  body?: Component;
  /** Decides after the body: -1 stops; any candidate runs and the loop goes round again. */
  selector: Decider;
  /** Upper bound on iterations (default 16); reaching it stops the loop. */
  maxIterations?: number;
}

/**
 * A while loop driven by a Selector: each iteration runs `body`, then asks the selector; the empty choice
 * (-1) ends the loop, any other choice runs that candidate's workflow and starts the next iteration.
 * Every decision is a `route` chunk in the output, so the iterations are visible in the graph.
 */
export function loop(name: string, options: LoopOptions): Workflow {
  const maxIterations = options.maxIterations ?? 16;
  if (!Number.isInteger(maxIterations) || maxIterations < 1) {
    throw new RathError("invalid_workflow", `loop '${name}' needs maxIterations >= 1; found ${maxIterations}`);
  }
  return new Workflow(name, options.body ? [options.body] : [], async (session, context) => {
    let current = session;
    const intermediates: Session[] = [];
    const advance = (next: Session): void => {
      intermediates.push(current);
      current = next;
    };
    try {
      for (let iteration = 0; iteration < maxIterations; iteration++) {
        if (options.body) advance(await runStep(name, `${stepName(options.body, 0)}#${iteration}`, options.body, current, context));
        const decision = await options.selector.decide(current, context);
        advance(decision.session);
        if (decision.chosen < 0) break;
        advance(await runStep(name, `${stepName(decision.workflow, decision.chosen)}#${iteration}`, decision.workflow, current, context));
      }
    } catch (error) {
      await releaseIntermediates([...intermediates, current], [session]);
      throw error;
    }
    await releaseIntermediates(intermediates, [session, current]);
    return current;
  });
}
