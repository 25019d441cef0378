/**
 * Runs `bin/rath.mjs` as a child process for the CLI tests: in a temporary working directory (removed after the
 * file's tests), never with the caller's DATABASE_URL (so a test runs on the SQLite file it names), with a 60 s cap.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll } from "vitest";

/** The repository root. */
export const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

/** What the spawned command printed and how it ended. */
export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** A harness for one test file: its temporary directory and `rath(args, stdin?)` running one sub-command. */
export function cliHarness(command: "run" | "user", prefix: string): { directory: string; rath: (args: string[], stdin?: string) => CliResult } {
  const directory = mkdtempSync(path.join(os.tmpdir(), prefix));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));
  const rath = (args: string[], stdin = ""): CliResult => {
    const environment = { ...process.env };
    delete environment.DATABASE_URL;
    const result = spawnSync(process.execPath, [path.join(repositoryRoot, "bin/rath.mjs"), command, ...args], {
      cwd: directory,
      env: environment,
      input: stdin,
      encoding: "utf8",
      timeout: 60_000,
    });
    return { status: result.status, stdout: result.stdout, stderr: result.stderr };
  };
  return { directory, rath };
}
