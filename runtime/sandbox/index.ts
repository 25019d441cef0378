/** Public surface of the sandbox layer: backends, the registry, binding a session, workspace handles. */
export { BackendAvailability, type SandboxBackend, type SandboxOpenOptions } from "./backend";
export { SandboxBackendRegistry, sandboxBackends } from "./backends";
export { bindSandbox } from "./bind";
export { BWRAP_PACKAGE, BWRAP_WORKSPACE, BwrapBackend, BwrapHandle, bwrapArguments } from "./bwrap-backend";
export { resolveConfinedPath, type WorkspaceLocation } from "./confine";
export { DEFAULT_PLACEMENT, Placement, SandboxHandle, SandboxSpec } from "./handle";
export { LocalBackend, LocalHandle } from "./local-backend";
export { DEFAULT_OUTPUT_LIMIT_BYTES, runProcess, type ProcessOutcome, type RunProcessOptions } from "./run-process";
export {
  DEFAULT_EXEC_TIMEOUT_MS,
  WorkspaceHandle,
  type ExecOptions,
  type ExecResult,
  type PathOptions,
  type WorkspaceEntry,
} from "./workspace-handle";
