import { randomUUID } from "node:crypto";
import { z } from "zod";

/**
 * Sandbox specification as the reference implementation writes it into session headers (its
 * `BackendSandboxSpec`: every field optional, `None` written as null; `timeout_seconds` is a `timedelta`'s
 * total seconds, so 0.0 and negative values are allowed). A timeout that is not positive means no timeout.
 */
export const SandboxSpec = z.object({
  image: z.string().nullable().default(null),
  entrypoint: z.array(z.string()).nullable().default(null),
  env: z.record(z.string(), z.string()).nullable().default(null),
  timeout_seconds: z.number().nullable().default(null),
  working_dir: z.string().nullable().default(null),
});
export type SandboxSpec = z.infer<typeof SandboxSpec>;

/**
 * Where a Session's tools execute: a backend name plus its spec. `backend: null` is a session never placed (the
 * reference's `sandbox_backend: None`, e.g. from a loaded file): it is kept distinct from "local", and binding
 * it is refused until it is placed with `session.to(...)`.
 */
export const Placement = z.object({ backend: z.string().nullable(), spec: SandboxSpec.nullable() });
export type Placement = z.infer<typeof Placement>;

export const DEFAULT_PLACEMENT: Placement = Object.freeze({ backend: "local", spec: null });

/**
 * A bound sandbox, shared by every Session forked from the one that bound it. Reference counted: each holder
 * retains it, and the backend's resources are freed when the last holder releases it. A closed handle
 * refuses work with `sandbox_closed`.
 */
export abstract class SandboxHandle {
  readonly id: string;
  readonly backend: string;
  readonly workingDir: string;
  private count = 1;
  private isClosed = false;

  protected constructor(backend: string, workingDir: string, id: string = randomUUID()) {
    this.backend = backend;
    this.workingDir = workingDir;
    this.id = id;
  }

  get refcount(): number {
    return this.count;
  }

  get closed(): boolean {
    return this.isClosed;
  }

  /** One more holder (a fork, a merge result). */
  retain(): this {
    if (!this.isClosed) this.count += 1;
    return this;
  }

  /** One holder fewer; the last release closes the handle. */
  async release(): Promise<void> {
    if (this.isClosed) return;
    this.count -= 1;
    if (this.count <= 0) await this.close();
  }

  /** Closes now, whatever the count. */
  async close(): Promise<void> {
    if (this.isClosed) return;
    this.isClosed = true;
    this.count = 0;
    await this.onClose();
  }

  /** Backend-specific clean-up. */
  protected abstract onClose(): Promise<void>;
}
