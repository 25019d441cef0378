import { z } from "zod";
import type { SandboxSpec } from "./handle";
import type { WorkspaceHandle } from "./workspace-handle";

/**
 * Whether a backend can open sandboxes on this machine, and if not, why (with how to fix it). `notes` names what an
 * available backend cannot enforce here (e.g. a limit the kernel offers no way to set for this user).
 */
export const BackendAvailability = z.object({ ok: z.boolean(), reason: z.string().optional(), notes: z.array(z.string()).optional() });
export type BackendAvailability = z.infer<typeof BackendAvailability>;

/** Options for opening a sandbox beyond its spec. */
export interface SandboxOpenOptions {
  /** Prefix of the temporary workspace directory made when the spec names none. */
  readonly temporaryPrefix?: string;
}

/**
 * The port every sandbox backend implements. `open` makes a handle with one reference; a spec without
 * `working_dir` gets a fresh temporary directory that is deleted when the handle closes.
 */
export interface SandboxBackend {
  readonly name: string;
  available(): Promise<BackendAvailability>;
  open(spec: SandboxSpec | null, options?: SandboxOpenOptions): Promise<WorkspaceHandle>;
}
