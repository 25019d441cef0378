import { constants } from "node:fs";
import { mkdir, readdir, rm, stat } from "node:fs/promises";
import path from "node:path";
import { ToolFailure } from "../tools/types";
import { displayPath, openConfined, resolveConfinedPath, type WorkspaceLocation } from "./confine";
import type { ContainmentOptions } from "./call-containment";
import { SandboxHandle } from "./handle";
import { runProcess } from "./run-process";

/** Default command timeout when neither the call nor the sandbox spec sets one. */
export const DEFAULT_EXEC_TIMEOUT_MS = 60_000;

/** Options of one command run inside a sandbox. */
export interface ExecOptions {
  /** Kill the whole process group after this long (default: the spec's timeout_seconds, else 60 s). */
  readonly timeoutMs?: number;
  /** Extra environment variables on top of the sandbox's own. */
  readonly env?: Record<string, string>;
  readonly stdin?: string;
  readonly signal?: AbortSignal;
  /** Cap on captured bytes per stream (default 64 KiB). */
  readonly outputLimitBytes?: number;
}

/** The outcome of a command that ran to completion (a non-zero exit code is still a result, not a failure). */
export interface ExecResult {
  readonly exitCode: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly elapsedMs: number;
  /** True when stdout or stderr exceeded the capture limit and was cut. */
  readonly truncated: boolean;
}

/** A command as a backend runs it. */
export interface PreparedCommand {
  readonly argv: string[];
  readonly containment: ContainmentOptions;
  /** Bytes of output (both streams) after which the command is stopped. */
  readonly outputStopBytes: number;
}

/** Options of a filesystem operation: directories besides the workspace that the policy also allows. */
export interface PathOptions {
  readonly extraRoots?: readonly string[];
}

/** One entry of a directory listing; `path` is relative to the workspace (absolute for extra roots). */
export interface WorkspaceEntry {
  readonly name: string;
  readonly path: string;
  readonly is_dir: boolean;
}

function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

/**
 * A sandbox handle with a workspace directory: commands run with the workspace as their current directory,
 * and file operations take paths relative to it, confined to it (see `resolveConfinedPath`). Backends
 * differ in how a command runs (`prepareCommand`), what environment it starts from and where the workspace appears.
 */
export abstract class WorkspaceHandle extends SandboxHandle {
  /** Where the workspace is on the host and inside the sandbox. */
  readonly location: WorkspaceLocation;
  private readonly specEnvironment: Record<string, string>;
  private readonly defaultTimeoutMs: number;
  private readonly ownsWorkingDir: boolean;

  protected constructor(options: {
    backend: string;
    hostDir: string;
    innerDir: string;
    environment: Record<string, string>;
    timeoutMs: number | null;
    ownsWorkingDir: boolean;
  }) {
    super(options.backend, options.hostDir);
    this.location = { hostDir: options.hostDir, innerDir: options.innerDir };
    this.specEnvironment = options.environment;
    this.defaultTimeoutMs = options.timeoutMs ?? DEFAULT_EXEC_TIMEOUT_MS;
    this.ownsWorkingDir = options.ownsWorkingDir;
  }

  /** How this backend runs one command: the argv to spawn, how its processes are contained, when output stops it. */
  protected abstract prepareCommand(argv: readonly string[], timeoutMs: number): Promise<PreparedCommand>;

  /** The variables every command of this backend starts from (no host variables beyond these). */
  protected abstract baseEnvironment(): Record<string, string>;

  /** Refuses work on a closed handle with `sandbox_closed`. */
  protected assertOpen(): void {
    if (this.closed) {
      throw new ToolFailure("sandbox_closed", `sandbox ${this.id} (${this.backend}) is closed; expected an open sandbox`);
    }
  }

  /**
   * The environment commands see: the backend's minimal set (PATH, HOME = the workspace, LANG, TMPDIR, ...), then
   * the spec's env, then the call's env. Nothing else of the server's environment (API keys included) gets in.
   */
  environment(extra: Record<string, string> = {}): Record<string, string> {
    return { ...this.baseEnvironment(), ...this.specEnvironment, ...extra };
  }

  /**
   * Runs a shell command line (`/bin/sh -c`) or an argv in the workspace. When it ends — by itself, by timeout
   * (failing with `timeout`), by abort or because it printed too much — every process it started is killed.
   */
  async exec(command: string | readonly string[], options: ExecOptions = {}): Promise<ExecResult> {
    this.assertOpen();
    const argv = typeof command === "string" ? ["/bin/sh", "-c", command] : [...command];
    const timeoutMs = options.timeoutMs ?? this.defaultTimeoutMs;
    const prepared = await this.prepareCommand(argv, timeoutMs);
    const outcome = await runProcess(prepared.argv, {
      cwd: this.location.hostDir,
      env: this.environment(options.env),
      timeoutMs,
      stdin: options.stdin,
      signal: options.signal,
      outputLimitBytes: options.outputLimitBytes,
      containment: prepared.containment,
      outputStopBytes: prepared.outputStopBytes,
    });
    if (outcome.spawnError) {
      throw new ToolFailure("os_error", `cannot start '${argv[0] ?? ""}': ${outcome.spawnError.message}`, {
        code: outcome.spawnError.code,
      });
    }
    if (outcome.timedOut) {
      throw new ToolFailure("timeout", `command did not finish within ${timeoutMs} ms; its process group was killed`, {
        timeout_ms: timeoutMs,
        stdout: outcome.stdout,
        stderr: outcome.stderr,
      });
    }
    if (outcome.aborted) {
      throw new ToolFailure("tool_execution_exception", "command aborted by the run; its process group was killed");
    }
    const separator = outcome.stderr === "" || outcome.stderr.endsWith("\n") ? "" : "\n";
    const stopped = outcome.outputExceeded ? `${separator}[rath] the command printed more than ${String(prepared.outputStopBytes)} bytes and was stopped\n` : "";
    return {
      exitCode: outcome.exitCode,
      stdout: outcome.stdout,
      stderr: outcome.stderr + stopped,
      elapsedMs: outcome.elapsedMs,
      truncated: outcome.truncated,
    };
  }

  /** The confined host path of a workspace path (`tool_policy_denied` when it escapes). */
  async resolvePath(requested: string, options: PathOptions = {}): Promise<string> {
    this.assertOpen();
    return resolveConfinedPath(requested, this.location, options.extraRoots);
  }

  /** Reads a whole file as bytes. */
  async readFile(requested: string, options: PathOptions = {}): Promise<Buffer> {
    const target = await this.resolvePath(requested, options);
    try {
      const file = await openConfined(target, constants.O_RDONLY, requested, this.location, options.extraRoots);
      try {
        return await file.readFile();
      } finally {
        await file.close();
      }
    } catch (error) {
      throw this.fileFailure(error, requested);
    }
  }

  /** Writes a file, creating missing parent directories; returns the number of bytes written. */
  async writeFile(requested: string, data: string | Uint8Array, options: PathOptions = {}): Promise<{ bytesWritten: number }> {
    const target = await this.resolvePath(requested, options);
    const bytes = typeof data === "string" ? Buffer.from(data, "utf8") : data;
    try {
      await mkdir(path.dirname(target), { recursive: true });
      const file = await openConfined(target, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC, requested, this.location, options.extraRoots);
      try {
        await file.writeFile(bytes);
      } finally {
        await file.close();
      }
    } catch (error) {
      throw this.fileFailure(error, requested);
    }
    return { bytesWritten: bytes.length };
  }

  /** Lists a directory (not recursive), sorted by name. */
  async list(requested: string, options: PathOptions = {}): Promise<WorkspaceEntry[]> {
    const target = await this.resolvePath(requested, options);
    try {
      const entries = await readdir(target, { withFileTypes: true });
      const result: WorkspaceEntry[] = [];
      for (const entry of entries) {
        const child = path.join(target, entry.name);
        const isDirectory = entry.isDirectory() || (entry.isSymbolicLink() && (await stat(child).catch(() => null))?.isDirectory() === true);
        result.push({ name: entry.name, path: displayPath(child, this.location), is_dir: isDirectory });
      }
      return result.sort((left, right) => (left.name < right.name ? -1 : left.name > right.name ? 1 : 0));
    } catch (error) {
      throw this.fileFailure(error, requested);
    }
  }

  /** Whether a path exists (following symlinks); paths outside the workspace are refused, not answered. */
  async exists(requested: string, options: PathOptions = {}): Promise<boolean> {
    const target = await this.resolvePath(requested, options);
    try {
      await stat(target);
      return true;
    } catch {
      return false;
    }
  }

  private fileFailure(error: unknown, requested: string): ToolFailure {
    if (error instanceof ToolFailure) return error;
    const code = errorCode(error);
    if (code === "ENOENT") return new ToolFailure("file_not_found", `no such file or directory: '${requested}'`, { path: requested });
    return new ToolFailure("os_error", `${code ?? "error"} on '${requested}': ${(error as Error).message.replace(this.location.hostDir, this.location.innerDir)}`, {
      path: requested,
      code,
    });
  }

  protected async onClose(): Promise<void> {
    if (this.ownsWorkingDir) await rm(this.location.hostDir, { recursive: true, force: true });
  }
}
