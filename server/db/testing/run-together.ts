/**
 * Several processes on one database, started at the same moment: one `tsx` process per command (a script path and
 * its arguments) with DATABASE_URL set, each printing `ready` once its database is open and waiting for a line on
 * stdin; when all are ready they get `go` together. Returns the JSON line each printed last; a process that exits
 * non-zero or does not finish in time fails the test.
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect } from "vitest";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
/** Children are killed when they have not finished by then (a hang must fail the test, not outlive it). */
const DEFAULT_DEADLINE_MS = 25_000;

/** What one process printed last (parsed), and its stderr. */
export interface ChildResult<Report> {
  report: Report;
  stderr: string;
}

/** Runs the commands together on `url` (see the file comment); `deadlineMs` counts from the start. */
export async function runTogether<Report>(url: string, commands: string[][], deadlineMs = DEFAULT_DEADLINE_MS): Promise<Array<ChildResult<Report>>> {
  const environment: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: url };
  delete environment.RATH_DB_PATH;
  const children = commands.map(([script = "", ...args]) => {
    // `node --import tsx` is what `npx tsx` runs, without the wrapper process, so a kill reaches the script.
    const child = spawn(process.execPath, ["--import", "tsx", script, ...args], { cwd: root, env: environment, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (data: Buffer) => (stdout += data.toString()));
    child.stderr.on("data", (data: Buffer) => (stderr += data.toString()));
    const ready = new Promise<void>((resolve, reject) => {
      const check = () => (stdout.includes("ready\n") ? resolve() : undefined);
      child.stdout.on("data", check);
      child.once("exit", (code) => reject(new Error(`${script} exited with ${code} before it was ready: ${stderr}`)));
    });
    const exited = new Promise<number | null>((resolve) => child.once("close", resolve));
    return { child, ready, exited, output: () => ({ stdout, stderr }) };
  });
  const deadline = setTimeout(() => {
    for (const entry of children) entry.child.kill("SIGKILL");
  }, deadlineMs);
  let codes: Array<number | null>;
  try {
    await Promise.all(children.map((entry) => entry.ready));
    for (const entry of children) entry.child.stdin.write("go\n");
    codes = await Promise.all(children.map((entry) => entry.exited));
  } finally {
    clearTimeout(deadline);
  }
  return children.map((entry, index) => {
    const { stdout, stderr } = entry.output();
    expect(codes[index], `${commands[index]?.join(" ")} exit code; stderr: ${stderr}`).toBe(0);
    const last = stdout.trim().split("\n").at(-1) ?? "";
    return { report: JSON.parse(last) as Report, stderr };
  });
}
