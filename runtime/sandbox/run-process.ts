import { spawn } from "node:child_process";
import { CallContainment, type ContainmentOptions } from "./call-containment";

/** Default cap on captured bytes per output stream (stdout and stderr each). */
export const DEFAULT_OUTPUT_LIMIT_BYTES = 64 * 1024;

/** How to run one process: where, with which environment, for how long, and how its descendants are held. */
export interface RunProcessOptions {
  readonly cwd: string;
  readonly env: Record<string, string>;
  readonly timeoutMs: number;
  readonly stdin?: string;
  readonly signal?: AbortSignal;
  readonly outputLimitBytes?: number;
  /** Stop the command (kill everything it started) once it printed this many bytes; default 16 MiB. */
  readonly outputStopBytes?: number;
  /** How the call's processes are held together; default: its process group only. */
  readonly containment?: ContainmentOptions;
}

/** What a finished (or killed) process left behind. Output beyond the limit is dropped and `truncated` is set. */
export interface ProcessOutcome {
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly truncated: boolean;
  /** The command printed more than `outputStopBytes` and was stopped. */
  readonly outputExceeded: boolean;
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

/** Grace period for pipes to drain after the call's processes were killed (an unkillable holder may keep them open). */
const DRAIN_GRACE_MS = 500;

/** Default cap on bytes a command may print (both streams together) before it is stopped. */
export const DEFAULT_OUTPUT_STOP_BYTES = 16 * 1024 * 1024;

/**
 * Runs `argv` in its own process group, contained as `options.containment` says (cgroups, or a /proc tracker), and
 * captures its output. When the command exits, times out, is aborted or prints more than `outputStopBytes`, every
 * process it started is killed — background children and `setsid` escapes included — before the promise settles,
 * so nothing the call started outlives it. Never rejects: failures are in the outcome.
 */
export async function runProcess(argv: readonly string[], options: RunProcessOptions): Promise<ProcessOutcome> {
  const containment = await CallContainment.open(options.containment ?? { cgroups: false });
  return runContained(argv, options, containment);
}

function runContained(argv: readonly string[], options: RunProcessOptions, containment: CallContainment): Promise<ProcessOutcome> {
  const started = performance.now();
  const limit = options.outputLimitBytes ?? DEFAULT_OUTPUT_LIMIT_BYTES;
  const stopAt = options.outputStopBytes ?? DEFAULT_OUTPUT_STOP_BYTES;
  const stdout = new CappedBuffer(limit);
  const stderr = new CappedBuffer(limit);
  const [command, ...args] = containment.wrap(argv);

  return new Promise((resolve) => {
    let timedOut = false;
    let aborted = false;
    let outputExceeded = false;
    let printed = 0;
    let settling = false;
    let exit: { code: number | null; signal: NodeJS.Signals | null } | null = null;
    let drainTimer: NodeJS.Timeout | undefined;
    let killing: Promise<void> | null = null;

    const child = spawn(command ?? "", args, {
      cwd: options.cwd,
      env: { ...options.env, ...containment.environment() } as NodeJS.ProcessEnv,
      detached: true,
      stdio: ["pipe", "pipe", "pipe"],
    });

    const killTree = (): Promise<void> => {
      if (killing) return killing;
      killing = containment.killAll();
      drainTimer = setTimeout(() => {
        child.stdout?.destroy();
        child.stderr?.destroy();
        settle(null);
      }, DRAIN_GRACE_MS);
      return killing;
    };

    const settle = (spawnError: NodeJS.ErrnoException | null): void => {
      if (settling) return;
      settling = true;
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", onAbort);
      void (async () => {
        await killTree();
        clearTimeout(drainTimer);
        await containment.dispose();
        resolve({
          exitCode: exit?.code ?? null,
          signal: exit?.signal ?? null,
          stdout: stdout.text(),
          stderr: stderr.text(),
          truncated: stdout.truncated || stderr.truncated || outputExceeded,
          outputExceeded,
          timedOut,
          aborted,
          elapsedMs: performance.now() - started,
          spawnError,
        });
      })();
    };

    const onAbort = (): void => {
      aborted = true;
      void killTree();
    };

    const timer = setTimeout(() => {
      timedOut = true;
      void killTree();
    }, options.timeoutMs);

    if (options.signal?.aborted) onAbort();
    else options.signal?.addEventListener("abort", onAbort, { once: true });

    const take = (buffer: CappedBuffer) => (data: Buffer) => {
      buffer.push(data);
      printed += data.length;
      if (printed > stopAt && !outputExceeded) {
        outputExceeded = true;
        void killTree();
      }
    };
    child.stdout?.on("data", take(stdout));
    child.stderr?.on("data", take(stderr));
    child.on("error", (error: NodeJS.ErrnoException) => settle(error));
    if (child.pid !== undefined) void containment.attach(child.pid);
    child.on("exit", (code, signal) => {
      exit = { code, signal };
      // The call ends with its main process: whatever it left running (background jobs, setsid escapes) dies now.
      void killTree();
    });
    child.on("close", (code, signal) => {
      exit ??= { code, signal };
      settle(null);
    });
    child.stdin?.on("error", () => {
      // The process may exit before reading its input; that is not our failure.
    });
    child.stdin?.end(options.stdin ?? "");
  });
}
