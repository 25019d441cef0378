import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { createRequire } from "node:module";
import { defaultContext, type RunContext } from "../context";
import { Session } from "../session/session";
import type { ToolContext } from "../tools/types";
import type { McpHttpServerConfig, McpStdioServerConfig } from "./server-config";

/**
 * Real MCP servers from npm for this folder's tests: server-everything (stdio and streamable HTTP) and
 * server-filesystem (stdio), run with this Node binary.
 */
const require = createRequire(import.meta.url);

/** The entry point of an installed MCP server package (its `bin`). */
function serverEntry(packageName: string): string {
  return require.resolve(`${packageName}/dist/index.js`);
}

/** server-everything over stdio; `env` is passed to the child. */
export function everythingStdioConfig(options: { name?: string; env?: Record<string, string> } = {}): McpStdioServerConfig {
  return {
    name: options.name ?? "everything",
    transport: "stdio",
    command: process.execPath,
    args: [serverEntry("@modelcontextprotocol/server-everything"), "stdio"],
    ...(options.env ? { env: options.env } : {}),
  };
}

/** server-filesystem over stdio, allowed to touch `allowedDirectory` only. */
export function filesystemStdioConfig(allowedDirectory: string): McpStdioServerConfig {
  return {
    name: "filesystem",
    transport: "stdio",
    command: process.execPath,
    args: [serverEntry("@modelcontextprotocol/server-filesystem"), allowedDirectory],
  };
}

/** A running server-everything in streamable HTTP mode, as a child process on a free port of 127.0.0.1. */
export interface EverythingHttpServer {
  readonly url: string;
  readonly child: ChildProcess;
  config(headers?: Record<string, string>): McpHttpServerConfig;
  stop(): Promise<void>;
}

/** Starts server-everything's streamable HTTP mode (it reads the port from PORT) and waits until it listens. */
export async function startEverythingHttp(): Promise<EverythingHttpServer> {
  const port = await freePort();
  const child = spawn(process.execPath, [serverEntry("@modelcontextprotocol/server-everything"), "streamableHttp"], {
    env: { ...process.env, PORT: String(port) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.resume();
  await new Promise<void>((resolve, reject) => {
    let output = "";
    const timer = setTimeout(() => reject(new Error(`server-everything did not listen within 20 s: ${output}`)), 20_000);
    child.stderr?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes(`listening on port ${port}`)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`server-everything exited with ${String(code)} before listening: ${output}`));
    });
  });
  const url = `http://127.0.0.1:${port}/mcp`;
  return {
    url,
    child,
    config: (headers) => ({ name: "everything-http", transport: "http", url, ...(headers ? { headers } : {}) }),
    stop: () => stopChild(child),
  };
}

/** Kills a child process and waits for it to exit. */
export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 3_000);
  await exited;
  clearTimeout(timer);
}

/** True while a process with this id exists. */
export function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Polls until a process has exited (the SDK's stdio close waits up to 2 s per step). */
export async function waitForExit(pid: number, timeoutMs = 8_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!processIsAlive(pid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return !processIsAlive(pid);
}

/** A ToolContext for calling a tool's `execute` directly in a test. */
export function toolContextFor(run: RunContext = defaultContext(), callId = "call-1"): ToolContext {
  return { session: Session.create("user", "test"), sandbox: null, run, signal: new AbortController().signal, callId };
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
