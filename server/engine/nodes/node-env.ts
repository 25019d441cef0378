import { z } from "zod";
import type { RunContext } from "../../../runtime/context";
import type { MemoryStore } from "../../../runtime/memory/memory-store";
import type { Provider } from "../../../runtime/providers/types";
import type { Session } from "../../../runtime/session/session";
import type { EffectHooks } from "../../../runtime/tools/effects";
import type { MemoryConfig } from "../../../runtime/workflow-spec/node-configs";

/** A person's decision on an approval interrupt (SPEC §6). */
export const ApprovalDecision = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("approve") }),
  /** Replaces the text of the session's last user or assistant chunk. */
  z.object({ kind: z.literal("edit"), text: z.string() }),
  /** Fails the branch. */
  z.object({ kind: z.literal("reject"), reason: z.string().optional() }),
  /** Appends the response as a `user` chunk and goes on. */
  z.object({ kind: z.literal("respond"), text: z.string() }),
]);
export type ApprovalDecision = z.infer<typeof ApprovalDecision>;

/** What an approval node asks a person, as plain JSON (stored with the run's interrupt). */
export const ApprovalInterruptPayload = z.object({
  nodeId: z.string(),
  sessionId: z.string(),
  /** The text under review: the session's last user or assistant text. */
  text: z.string(),
  allowEdit: z.boolean(),
});
export type ApprovalInterruptPayload = z.infer<typeof ApprovalInterruptPayload>;

/** What executing one node needs from the engine: providers, events, effect hooks, stores and loaders. */
export interface NodeEnv {
  /** The provider registered under `name` (a spec's `provider` field); throws `invalid_config` when unknown. */
  getProvider(name: string): Provider;
  /** Where events go (and the run's abort signal and shared resources, e.g. the MCP pool). */
  readonly run: RunContext;
  /** The run's input text, used by the Input node (falls back to the node's `defaultText`). */
  readonly input?: string;
  /** Where the Input node places its session (e.g. `{ backend: "bwrap" }`); unbound until a tool needs it. */
  readonly placement?: { backend: string; workingDir?: string };
  /** Effect-ledger hooks for tool dispatch (see runtime/tools/effects.ts). */
  readonly effects?: EffectHooks;
  /** The workflow whose nodes run here (the run's, or a sub-workflow's); its memory stores are the ones used. */
  readonly workflowId?: string;
  /** The memory store a Memory node names, for the workflow given; required when a spec has Memory nodes. */
  getMemoryStore?(config: MemoryConfig, workflowId: string | undefined): MemoryStore;
  /** Loads a saved workflow's spec (its latest revision, or the pinned one); required for Sub-workflow nodes. */
  loadSubworkflow?(workflowId: string, revisionId?: string): Promise<unknown>;
  /** Ids of the workflows being run as sub-workflows above this one (guards against endless recursion). */
  readonly subworkflowStack?: readonly string[];
}

/** Per-step input beyond the sessions: the decision when an interrupted approval node is resumed. */
export interface StepOptions {
  readonly decision?: ApprovalDecision;
}

/** Where an output session goes next: the target node, over which edge, and which of `outputs` it carries. */
export interface NextStep {
  readonly nodeId: string;
  readonly edgeId: string;
  readonly output: number;
}

/** What executing one node produced. */
export interface NodeResult {
  /** Sessions produced by this step (a fork gives one per branch). */
  readonly outputs: Session[];
  /** The steps to schedule; empty when the branch ends (Output, a Selector's -1 without `done`, an interrupt). */
  readonly next: NextStep[];
  /** A Selector's decision: the chosen index (-1 = stop) and the node it leads to. */
  readonly route?: { chosen: number; target: string | null };
  /** An Approval node waiting for a person; resume by executing the node again with `StepOptions.decision`. */
  readonly interrupt?: { prompt: string; payload: ApprovalInterruptPayload };
  /** An Output node's final text and session. */
  readonly output?: { text: string; sessionId: string };
  /** The branch failed without an error to retry: an approval was rejected, or a sub-workflow failed. */
  readonly failure?: { code: "approval_rejected" | "subworkflow_failed"; message: string };
}
