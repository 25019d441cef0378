/**
 * Starts `crash-worker.ts` in its own process group (so SIGKILL reaches the commands it spawned) and waits for
 * conditions on the database while it works.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";

const SCRIPT = fileURLToPath(new URL("./crash-worker.ts", import.meta.url));

/** A worker process and a way to kill it and everything it started. */
export interface WorkerProcess {
  child: ChildProcess;
  /** SIGKILL to the whole process group; resolves when the worker exited. */
  kill(): Promise<void>;
}

/** Spawns a crash worker on `url`. */
export function spawnCrashWorker(url: string): WorkerProcess {
  const child = spawn(process.execPath, ["--import", "tsx", SCRIPT, url], { detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr?.on("data", (data: Buffer) => {
    stderr += data.toString();
  });
  child.stdout?.resume();
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return {
    child,
    async kill() {
      if (child.exitCode === null && child.pid !== undefined) {
        try {
          process.kill(-child.pid, "SIGKILL");
        } catch {
          child.kill("SIGKILL");
        }
      }
      await exited;
      if (stderr.trim() !== "" && !/ExperimentalWarning/.test(stderr)) console.warn(`crash worker stderr: ${stderr.slice(0, 2000)}`);
    },
  };
}

/** Polls `condition` every 50 ms until it holds; throws after `timeoutMs`. */
export async function waitFor(condition: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
