import { RathError } from "../errors";
import type { SandboxBackend } from "./backend";
import { BwrapBackend } from "./bwrap-backend";
import { LocalBackend } from "./local-backend";

/** Sandbox backends by name; `bindSandbox` looks placements up here. */
export class SandboxBackendRegistry {
  private readonly backends = new Map<string, SandboxBackend>();

  constructor(backends: readonly SandboxBackend[] = []) {
    for (const backend of backends) this.register(backend);
  }

  /** Adds or replaces a backend under its name. */
  register(backend: SandboxBackend): this {
    this.backends.set(backend.name, backend);
    return this;
  }

  /** The backend with this name; an unknown name is `sandbox_unavailable` listing the known ones. */
  get(name: string): SandboxBackend {
    const backend = this.backends.get(name);
    if (!backend) {
      throw new RathError("sandbox_unavailable", `unknown sandbox backend '${name}'; available: ${this.names().join(", ")}`, {
        details: { backend: name },
      });
    }
    return backend;
  }

  has(name: string): boolean {
    return this.backends.has(name);
  }

  names(): string[] {
    return [...this.backends.keys()];
  }
}

/** The process-wide registry with the built-in backends `local` and `bwrap`. */
export const sandboxBackends = new SandboxBackendRegistry([new LocalBackend(), new BwrapBackend()]);
