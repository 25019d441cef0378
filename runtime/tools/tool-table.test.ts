import { rm } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { WorkspaceHandle } from "../sandbox/workspace-handle";
import type { Session } from "../session/session";
import { dispatchToolCalls } from "./dispatch";
import type { ToolPolicy } from "./policy";
import { ToolRegistry } from "./registry";
import {
  BACKENDS,
  backendMissing,
  outsideDirectory,
  parseContent,
  recordingContext,
  reportBwrapSkip,
  seededSession,
  toolCall,
  type BackendName,
} from "./test-support";

/** What a row's call must produce: a success whose content contains `result`, or a failure of `errorKind`. */
type Expectation = { ok: true; result?: Record<string, unknown>; check?: (content: Record<string, unknown>) => void } | { ok: false; errorKind: string };

interface Row {
  readonly title: string;
  readonly tool: string;
  /** Arguments, or a function of the environment (for paths that depend on the workspace or temp dirs). */
  /** The call's arguments, or a function of the environment that returns them. */
  readonly args: unknown;
  readonly policy?: (environment: TableEnvironment) => ToolPolicy;
  readonly expect: Expectation;
}

interface TableEnvironment {
  readonly innerDir: string;
  readonly outsideDir: string;
}

const denied: Expectation = { ok: false, errorKind: "tool_policy_denied" };

/** ONE table of tool calls, run unchanged on every backend; the last test proves both gave the same results. */
const TABLE: readonly Row[] = [
  { title: "echo", tool: "run_shell_command", args: { cmd: "echo hello" }, expect: { ok: true, result: { exit_code: 0, stdout: "hello\n", stderr: "" } } },
  { title: "cat a workspace file", tool: "run_shell_command", args: { cmd: "cat notes/hello.txt" }, expect: { ok: true, result: { stdout: "hello world\n" } } },
  { title: "non-zero exit is a result", tool: "run_shell_command", args: { cmd: "echo oops >&2; exit 3" }, expect: { ok: true, result: { exit_code: 3, stderr: "oops\n" } } },
  { title: "host secrets stay outside", tool: "run_shell_command", args: { cmd: 'echo "[$RATH_TABLE_SECRET]"' }, expect: { ok: true, result: { stdout: "[]\n" } } },
  { title: "HOME is the workspace", tool: "run_shell_command", args: { cmd: 'test "$HOME" = "$(pwd)" && echo same' }, expect: { ok: true, result: { stdout: "same\n" } } },
  {
    title: "output over the built-in limit is truncated",
    tool: "run_shell_command",
    args: { cmd: "head -c 70000 /dev/zero | tr '\\0' a" },
    expect: { ok: true, check: (content) => expect([String(content.stdout).length, content.truncated]).toEqual([20_000, true]) },
  },
  { title: "multi-line cmd", tool: "run_shell_command", args: { cmd: "echo a\necho b" }, expect: { ok: false, errorKind: "invalid_tool_arguments" } },
  { title: "cmd over 2048 chars", tool: "run_shell_command", args: { cmd: `echo ${"x".repeat(2050)}` }, expect: { ok: false, errorKind: "invalid_tool_arguments" } },
  { title: "cmd of the wrong type", tool: "run_shell_command", args: { cmd: 42 }, expect: { ok: false, errorKind: "invalid_tool_arguments" } },
  { title: "arguments not JSON", tool: "run_shell_command", args: '{"cmd": "echo', expect: { ok: false, errorKind: "invalid_tool_arguments" } },
  { title: "shell timeout (spec timeout_seconds)", tool: "run_shell_command", args: { cmd: "sleep 10" }, expect: { ok: false, errorKind: "timeout" } },
  { title: "missing executable exits 127", tool: "run_shell_command", args: { cmd: "no-such-program-rath" }, expect: { ok: true, result: { exit_code: 127 } } },
  { title: "denied command", tool: "run_shell_command", args: { cmd: "echo ok && rm -rf notes" }, policy: () => ({ commandDeny: ["rm"] }), expect: denied },
  { title: "write a new nested file", tool: "write_workspace_file", args: { path: "out/new.txt", content: "héllo" }, expect: { ok: true, result: { bytes_written: 6 } } },
  { title: "read it back", tool: "read_workspace_file", args: { path: "out/new.txt" }, expect: { ok: true, result: { data: "héllo" } } },
  { title: "read as base64", tool: "read_workspace_file", args: { path: "out/new.txt", encoding: "base64" }, expect: { ok: true, result: { data: Buffer.from("héllo").toString("base64") } } },
  { title: "read with ./ and a harmless ..", tool: "read_workspace_file", args: { path: "./out/../notes/hello.txt" }, expect: { ok: true, result: { data: "hello world\n" } } },
  { title: "read through an inner symlink", tool: "read_workspace_file", args: { path: "inner-link" }, expect: { ok: true, result: { data: "hello world\n" } } },
  {
    title: "absolute path inside the workspace",
    tool: "read_workspace_file",
    args: (environment: TableEnvironment) => ({ path: `${environment.innerDir}/notes/hello.txt` }),
    expect: { ok: true, result: { data: "hello world\n" } },
  },
  { title: "read a missing file", tool: "read_workspace_file", args: { path: "missing.txt" }, expect: { ok: false, errorKind: "file_not_found" } },
  { title: "read a directory", tool: "read_workspace_file", args: { path: "notes" }, expect: { ok: false, errorKind: "os_error" } },
  { title: "unknown encoding", tool: "read_workspace_file", args: { path: "notes/hello.txt", encoding: "klingon" }, expect: { ok: false, errorKind: "invalid_tool_arguments" } },
  { title: "missing path argument", tool: "read_workspace_file", args: {}, expect: { ok: false, errorKind: "invalid_tool_arguments" } },
  {
    title: "list the workspace",
    tool: "list_workspace_files",
    args: { path: "." },
    expect: {
      ok: true,
      result: {
        entries: [
          { name: "dangling", path: "dangling", is_dir: false },
          { name: "escape-link", path: "escape-link", is_dir: true },
          { name: "inner-link", path: "inner-link", is_dir: false },
          { name: "notes", path: "notes", is_dir: true },
          { name: "out", path: "out", is_dir: true },
        ],
      },
    },
  },
  { title: "list a subdirectory", tool: "list_workspace_files", args: { path: "notes/" }, expect: { ok: true, result: { entries: [{ name: "hello.txt", path: "notes/hello.txt", is_dir: false }] } } },
  { title: "list a missing directory", tool: "list_workspace_files", args: { path: "nope" }, expect: { ok: false, errorKind: "file_not_found" } },
  { title: "exists: yes", tool: "workspace_path_exists", args: { path: "notes/hello.txt" }, expect: { ok: true, result: { ok: true } } },
  { title: "exists: no", tool: "workspace_path_exists", args: { path: "nope.txt" }, expect: { ok: true, result: { ok: false } } },
  { title: "escape: read ../", tool: "read_workspace_file", args: { path: "../secret.txt" }, expect: denied },
  { title: "escape: read nested ..", tool: "read_workspace_file", args: { path: "notes/../../../etc/passwd" }, expect: denied },
  { title: "escape: read an absolute path", tool: "read_workspace_file", args: { path: "/etc/passwd" }, expect: denied },
  { title: "escape: read through a symlink", tool: "read_workspace_file", args: { path: "escape-link/passwd" }, expect: denied },
  { title: "escape: write through a symlink", tool: "write_workspace_file", args: { path: "escape-link/rath-evil", content: "x" }, expect: denied },
  { title: "escape: write through a dangling symlink", tool: "write_workspace_file", args: { path: "dangling", content: "x" }, expect: denied },
  { title: "escape: write an absolute path", tool: "write_workspace_file", args: { path: "/tmp/rath-table-evil.txt", content: "x" }, expect: denied },
  { title: "escape: list /", tool: "list_workspace_files", args: { path: "/" }, expect: denied },
  { title: "escape: list ..", tool: "list_workspace_files", args: { path: ".." }, expect: denied },
  { title: "escape: list through a symlink", tool: "list_workspace_files", args: { path: "escape-link" }, expect: denied },
  { title: "escape: exists /etc", tool: "workspace_path_exists", args: { path: "/etc" }, expect: denied },
  { title: "escape: exists ../..", tool: "workspace_path_exists", args: { path: "../.." }, expect: denied },
  {
    title: "escape: read another temp directory",
    tool: "read_workspace_file",
    args: (environment: TableEnvironment) => ({ path: path.join(environment.outsideDir, "secret.txt") }),
    expect: denied,
  },
  {
    title: "an extra filesystem root is allowed",
    tool: "read_workspace_file",
    args: (environment: TableEnvironment) => ({ path: path.join(environment.outsideDir, "secret.txt") }),
    policy: (environment) => ({ filesystemRoots: [environment.outsideDir] }),
    expect: { ok: true, result: { data: "outside secret\n" } },
  },
  { title: "python", tool: "run_code", args: { code: "print(6 * 7)", language: "python" }, expect: { ok: true, result: { text: null, stdout: "42\n", stderr: "", error: null } } },
  { title: "python is the default language", tool: "run_code", args: { code: "import sys; print(sys.version_info[0])" }, expect: { ok: true, result: { stdout: "3\n" } } },
  { title: "javascript", tool: "run_code", args: { code: "console.log([1, 2].map((n) => n * 2).join(','))", language: "javascript" }, expect: { ok: true, result: { stdout: "2,4\n", error: null } } },
  { title: "node alias", tool: "run_code", args: { code: "console.log(require('path').basename('/a/b.txt'))", language: "node" }, expect: { ok: true, result: { stdout: "b.txt\n" } } },
  { title: "bash", tool: "run_code", args: { code: "for i in 1 2; do echo $i; done", language: "bash" }, expect: { ok: true, result: { stdout: "1\n2\n" } } },
  {
    title: "python exception",
    tool: "run_code",
    args: { code: "1 / 0", language: "python" },
    expect: { ok: true, check: (content) => expect(String(content.error)).toContain("ZeroDivisionError") },
  },
  { title: "code sees the workspace", tool: "run_code", args: { code: "print(open('notes/hello.txt').read().strip())" }, expect: { ok: true, result: { stdout: "hello world\n" } } },
  { title: "unsupported language", tool: "run_code", args: { code: "DISPLAY 'HI'", language: "cobol" }, expect: { ok: false, errorKind: "unsupported_tool" } },
  { title: "code timeout", tool: "run_code", args: { code: "import time\ntime.sleep(10)", timeout: 0.5 }, expect: { ok: false, errorKind: "timeout" } },
  { title: "unknown tool", tool: "serch", args: { q: "x" }, expect: { ok: false, errorKind: "unknown_tool" } },
];

/** A backend-independent rendering of a call's outcome (timings dropped). */
function normalise(content: Record<string, unknown>): Record<string, unknown> {
  const { elapsed_ms: _elapsed, message: _message, detail: _detail, ...rest } = content;
  return rest;
}

const outcomes: Record<BackendName, Map<string, Record<string, unknown>>> = { local: new Map(), bwrap: new Map() };
let outsideDir = "";

beforeAll(async () => {
  process.env.RATH_TABLE_SECRET = "s3cret";
  outsideDir = await outsideDirectory();
  reportBwrapSkip();
});

afterAll(async () => {
  delete process.env.RATH_TABLE_SECRET;
  await rm(outsideDir, { recursive: true, force: true });
});

describe.each(BACKENDS)("the shared tool table on %s", (backend) => {
  let session: Session;
  let handle: WorkspaceHandle;
  const registry = ToolRegistry.of([], { builtins: true });

  beforeAll(async () => {
    if (backendMissing(backend)) return;
    // 5 s: long enough for an interpreter behind a slow launcher (pyenv's shim takes seconds on a loaded machine),
    // short enough for the `sleep 10` row to time out.
    ({ session, handle } = await seededSession(backend, { timeout_seconds: 5 }));
  });

  afterAll(async () => {
    await session?.release();
  });

  it.skipIf(backendMissing(backend)).each(TABLE.map((row) => [row.title, row] as const))("%s", async (_title, row) => {
    const environment: TableEnvironment = { innerDir: handle.location.innerDir, outsideDir };
    const args = typeof row.args === "function" ? (row.args as (value: TableEnvironment) => unknown)(environment) : row.args;
    const { run } = recordingContext();
    const [chunk] = await dispatchToolCalls([toolCall(row.tool, args)], {
      registry,
      session,
      run,
      producer: "table",
      policy: row.policy?.(environment),
    });
    expect(chunk).toBeDefined();
    const content = parseContent(chunk!.payload.content);
    if (row.expect.ok) {
      expect(content.error_kind, JSON.stringify(content)).toBeUndefined();
      expect(chunk!.meta.evidence?.ok).toBe(true);
      if (row.expect.result) expect(content).toMatchObject(row.expect.result);
      row.expect.check?.(content);
    } else {
      expect(content, JSON.stringify(content)).toMatchObject({ ok: false, error_kind: row.expect.errorKind });
      expect(typeof content.message).toBe("string");
      expect(chunk!.meta.evidence?.error_kind).toBe(row.expect.errorKind);
    }
    expect(chunk!.meta.evidence?.sandbox?.backend).toBe(backend);
    outcomes[backend].set(row.title, normalise(content));
  });
});

describe("the shared table across backends", () => {
  it.skipIf(backendMissing("bwrap"))("gives the same results on local and bwrap", () => {
    expect(outcomes.local.size).toBe(TABLE.length);
    expect(Object.fromEntries(outcomes.bwrap)).toEqual(Object.fromEntries(outcomes.local));
  });
});
