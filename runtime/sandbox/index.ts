/** Public surface of the sandbox layer: backends, the registry, binding a session, workspace handles. */
export { BackendAvailability, type SandboxBackend, type SandboxOpenOptions } from "./backend";
export { SandboxBackendRegistry, sandboxBackends } from "./backends";
export { bindSandbox } from "./bind";
export { BWRAP_PACKAGE, BWRAP_WORKSPACE, BwrapBackend, BwrapHandle, type BwrapBackendOptions } from "./bwrap-backend";
export { SANDBOX_GID, SANDBOX_UID, bwrapArguments, bwrapLayout, type BwrapLayout } from "./bwrap-layout";
export { cgroupSupport, type CgroupSupport } from "./cgroups";
export { DEFAULT_SANDBOX_LIMITS, SandboxLimits } from "./limits";
export { resolveConfinedPath, type WorkspaceLocation } from "./confine";
export { DEFAULT_PLACEMENT, Placement, SandboxHandle, SandboxSpec } from "./handle";
export { LocalBackend, LocalHandle, type LocalBackendOptions } from "./local-backend";
export { DEFAULT_OUTPUT_LIMIT_BYTES, DEFAULT_OUTPUT_STOP_BYTES, runProcess, type ProcessOutcome, type RunProcessOptions } from "./run-process";
export {
  DEFAULT_EXEC_TIMEOUT_MS,
  WorkspaceHandle,
  type ExecOptions,
  type ExecResult,
  type PathOptions,
  type WorkspaceEntry,
} from "./workspace-handle";
