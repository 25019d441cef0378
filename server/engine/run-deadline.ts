/**
 * Run deadlines: a run's timeout is the one it was started with, else its workflow's `settings.runTimeoutMs`;
 * `createRun` stores creation + timeout as the run's `deadlineAt`, which the executor and the sweeper enforce.
 */
import { WorkflowSettings } from "../../runtime/workflow-spec/workflow-spec";

/** The `timeoutMs` to give `createRun`: the requested one, else the settings' `runTimeoutMs`, else none (`{}`). */
export function runTimeout(requested: number | undefined, settings: WorkflowSettings | undefined): { timeoutMs?: number } {
  const timeoutMs = requested ?? settings?.runTimeoutMs;
  return timeoutMs === undefined ? {} : { timeoutMs };
}

/** The settings of a stored spec (already validated when it was saved), or undefined when it has none. */
export function settingsOfSpec(spec: unknown): WorkflowSettings | undefined {
  if (spec === null || typeof spec !== "object") return undefined;
  const parsed = WorkflowSettings.safeParse((spec as Record<string, unknown>).settings);
  return parsed.success ? parsed.data : undefined;
}
