import { spawn } from "node:child_process";

/** Default cap on captured bytes per output stream (stdout and stderr each). */
export const DEFAULT_OUTPUT_LIMIT_BYTES = 64 * 1024;

/** How to run one process: where, with which environment, for how long. */
export interface RunProcessOptions {
  readonly cwd: string;
  readonly env: Record<string, string>;
  readonly timeoutMs: number;
  readonly stdin?: string;
  readonly signal?: AbortSignal;
  readonly outputLimitBytes?: number;
}

/** What a finished (or killed) process left behind. Output beyond the limit is dropped and `truncated` is set. */
export interface ProcessOutcome {
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly truncated: boolean;
  readonly timedOut: boolean;
  readonly aborted: boolean;
  readonly elapsedMs: number;
  /** Set when the process could not be started (e.g. the executable does not exist). */
  readonly spawnError: NodeJS.ErrnoException | null;
}

/** Keeps the first `limit` bytes of a stream and remembers whether more arrived. */
class CappedBuffer {
  private readonly parts: Buffer[] = [];
  private size = 0;
  truncated = false;

  constructor(private readonly limit: number) {}

  push(data: Buffer): void {
    const room = this.limit - this.size;
    if (room <= 0) {
      if (data.length > 0) this.truncated = true;
      return;
    }
    const kept = data.length > room ? data.subarray(0, room) : data;
    if (kept.length < data.length) this.truncated = true;
    this.parts.push(kept);
    this.size += kept.length;
  }

  text(): string {
    return Buffer.concat(this.parts).toString("utf8");
  }
}

/** Grace period for pipes to drain after the process group was killed (a detached grandchild may hold them). */
const DRAIN_GRACE_MS = 500;

/**
 * Runs `argv` in its own process group and captures its output. On timeout or abort the whole group is
 * killed with SIGKILL, so background children die with it. Never rejects: failures are in the outcome.
 */
export function runProcess(argv: readonly string[], options: RunProcessOptions): Promise<ProcessOutcome> {
  const started = performance.now();
  const limit = options.outputLimitBytes ?? DEFAULT_OUTPUT_LIMIT_BYTES;
  const stdout = new CappedBuffer(limit);
  const stderr = new CappedBuffer(limit);
  const [command, ...args] = argv;

  return new Promise((resolve) => {
    let timedOut = false;
    let aborted = false;
    let settled = false;
    let exit: { code: number | null; signal: NodeJS.Signals | null } | null = null;
    let drainTimer: NodeJS.Timeout | undefined;

    const child = spawn(command ?? "", args, {
      cwd: options.cwd,
      env: options.env as NodeJS.ProcessEnv,
      detached: true,
      stdio: ["pipe", "pipe", "pipe"],
    });

    const finish = (spawnError: NodeJS.ErrnoException | null): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(drainTimer);
      options.signal?.removeEventListener("abort", onAbort);
      resolve({
        exitCode: exit?.code ?? null,
        signal: exit?.signal ?? null,
        stdout: stdout.text(),
        stderr: stderr.text(),
        truncated: stdout.truncated || stderr.truncated,
        timedOut,
        aborted,
        elapsedMs: performance.now() - started,
        spawnError,
      });
    };

    const killGroup = (): void => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {
        // The group is already gone.
      }
      drainTimer = setTimeout(() => {
        child.stdout?.destroy();
        child.stderr?.destroy();
        finish(null);
      }, DRAIN_GRACE_MS);
    };

    const onAbort = (): void => {
      aborted = true;
      killGroup();
    };

    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, options.timeoutMs);

    if (options.signal?.aborted) onAbort();
    else options.signal?.addEventListener("abort", onAbort, { once: true });

    child.stdout?.on("data", (data: Buffer) => stdout.push(data));
    child.stderr?.on("data", (data: Buffer) => stderr.push(data));
    child.on("error", (error: NodeJS.ErrnoException) => finish(error));
    child.on("exit", (code, signal) => {
      exit = { code, signal };
    });
    child.on("close", (code, signal) => {
      exit ??= { code, signal };
      finish(null);
    });
    child.stdin?.on("error", () => {
      // The process may exit before reading its input; that is not our failure.
    });
    child.stdin?.end(options.stdin ?? "");
  });
}
