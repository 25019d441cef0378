/**
 * The copy-paste examples of server/api/README.md and of the top-level README.md, executed: every `curl` line of the README is parsed (method,
 * url, headers, body; the shell's quoting and `$(...)` substitutions resolved), `run_...` / `wf_...` placeholders
 * are replaced by real ids, and the request goes to the same handlers the Next.js routes use. Each must succeed,
 * and each documented `# -> {...}` answer must have the keys the real answer has. The `npx rath run` examples are
 * run as processes and must print what the README shows.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { runInNewContext } from "node:vm";
import { afterAll, describe, expect, it } from "vitest";
import type { Database } from "../../db/database";
import { describeEachDatabase } from "../../db/testing/test-databases";
import { runToCompletion } from "../../engine/run-to-completion";
import { QUEUE_ONLY_EXECUTOR } from "../../services/run-executor";
import { callerFor, exampleSpec } from "../testing/api-harness";
import type { ApiServices } from "./api-door";
import { postImport } from "./import-endpoint";
import { getRun, getRunEvents, getRunTrace, postRun } from "./runs-endpoints";
import { loopbackPolicy } from "../../auth/testing/policies";
import { handleTrpcRequest } from "./trpc-handler";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const READMES = ["server/api/README.md", "README.md"] as const;
type Readme = (typeof READMES)[number];
const readmeText = (readme: Readme): string => readFileSync(path.join(root, readme), "utf8");

/** One documented shell command and the `# -> ...` answer documented right after it, if any. */
interface Documented {
  words: string[];
  answer?: string;
}

/** Splits a command line into words like a POSIX shell: quotes, backslashes and `$(...)` (resolved by `substitute`). */
function shellWords(line: string, substitute: (command: string) => string): string[] {
  const words: string[] = [];
  let word: string | null = null;
  let index = 0;
  const append = (text: string) => (word = (word ?? "") + text);
  const substitution = (): string => {
    let depth = 1;
    const start = index;
    while (depth > 0) {
      const character = line[index++];
      if (character === undefined) throw new Error(`unterminated $( in ${line}`);
      if (character === "(") depth += 1;
      if (character === ")") depth -= 1;
    }
    return substitute(line.slice(start, index - 1));
  };
  while (index < line.length) {
    const character = line[index++] as string;
    if (/\s/.test(character)) {
      if (word !== null) words.push(word);
      word = null;
    } else if (character === "#" && word === null) {
      break;
    } else if (character === "'") {
      const end = line.indexOf("'", index);
      append(line.slice(index, end));
      index = end + 1;
    } else if (character === '"') {
      append("");
      while (line[index] !== '"') {
        if (line[index] === "\\") {
          append(line[index + 1] as string);
          index += 2;
        } else if (line.startsWith("$(", index)) {
          index += 2;
          append(substitution());
        } else append(line[index++] as string);
      }
      index += 1;
    } else if (character === "$" && line[index] === "(") {
      index += 1;
      append(substitution());
    } else append(character);
  }
  if (word !== null) words.push(word);
  return words;
}

/** The README's bash blocks as commands (continuation lines joined), each with its documented answer. */
function documentedCommands(readme: Readme, program: string, substitute: (command: string) => string): Documented[] {
  const blocks = [...readmeText(readme).matchAll(/```bash\n([\s\S]*?)```/g)].map((match) => match[1] as string);
  const commands: Documented[] = [];
  for (const block of blocks) {
    const lines = block.replace(/\\\n\s*/g, " ").split("\n");
    for (const line of lines) {
      const answer = /^# -> (.*)$/.exec(line.trim())?.[1];
      if (answer !== undefined && commands.length > 0) (commands.at(-1) as Documented).answer ??= answer;
      if (line.startsWith(`${program} `)) commands.push({ words: shellWords(line, substitute) });
    }
  }
  return commands;
}

/** Also the inline `curl ...` examples in backticks below the block. */
function inlineCurls(readme: Readme, substitute: (command: string) => string): Documented[] {
  return [...readmeText(readme).matchAll(/`(curl [^`]+)`/g)].map((match) => ({ words: shellWords(match[1] as string, substitute) }));
}

interface CurlRequest {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body?: string;
}

/** `files` resolves `--data-binary @NAME` (the README's example files, made by the test). */
function curlRequest(words: readonly string[], files: Readonly<Record<string, string>>): CurlRequest {
  const request: CurlRequest = { method: "GET", url: new URL("http://localhost"), headers: {} };
  for (let index = 1; index < words.length; index += 1) {
    const word = words[index] as string;
    if (word === "-s" || word === "-N") continue;
    else if (word === "-X") request.method = words[++index] as string;
    else if (word === "-H") {
      const header = words[++index] as string;
      const colon = header.indexOf(":");
      request.headers[header.slice(0, colon).trim().toLowerCase()] = header.slice(colon + 1).trim();
    } else if (word === "-d") {
      request.body = words[++index];
      if (request.method === "GET") request.method = "POST";
    } else if (word === "--data-binary") {
      const name = (words[++index] as string).replace(/^@/, "");
      if (!Object.hasOwn(files, name)) throw new Error(`the README's curl sends a file this test does not make: ${name}`);
      request.body = files[name];
      if (request.method === "GET") request.method = "POST";
    } else if (word.startsWith("http")) request.url = new URL(word);
    else throw new Error(`the README's curl uses an option this test does not know: ${word}`);
  }
  return request;
}

/** The documented answer as JSON: `...` elisions dropped (`,...}` → `}`, `[...]` → `[]`). */
function documentedJson(answer: string): unknown {
  const cleaned = answer.replace(/,\s*\.\.\.\s*(?=[}\]])/g, "").replace(/\[\s*\.\.\.\s*\]/g, "[]").replace(/\{\s*\.\.\.\s*\}/g, "{}");
  return JSON.parse(cleaned);
}

/** Every key the documentation shows exists in the actual value (recursively; first array elements compared). */
function expectDocumentedKeys(documented: unknown, actual: unknown, where: string): void {
  if (Array.isArray(documented)) {
    expect(Array.isArray(actual), `${where} is an array`).toBe(true);
    if (documented.length > 0) expectDocumentedKeys(documented[0], (actual as unknown[])[0], `${where}[0]`);
    return;
  }
  if (documented !== null && typeof documented === "object") {
    expect(actual !== null && typeof actual === "object", `${where} is an object`).toBe(true);
    for (const [key, value] of Object.entries(documented)) {
      expect(actual as object, `${where} has "${key}"`).toHaveProperty([key]);
      expectDocumentedKeys(value, (actual as Record<string, unknown>)[key], `${where}.${key}`);
    }
  }
}

function withIds(text: string, ids: { runId: string; workflowId: string }): string {
  return text.replaceAll("run_...", ids.runId).replaceAll("wf_...", ids.workflowId);
}

async function send(request: CurlRequest, context: () => Promise<ApiServices>): Promise<Response> {
  const pathname = request.url.pathname;
  const init: RequestInit = { method: request.method, headers: request.headers, ...(request.body === undefined ? {} : { body: request.body }) };
  const fetchRequest = new Request(request.url, init);
  if (pathname.startsWith("/api/trpc/")) return handleTrpcRequest(fetchRequest, { services: context, policy: loopbackPolicy() });
  if (pathname === "/api/v1/imports") return postImport(fetchRequest, await context());
  const match = /^\/api\/v1\/runs(?:\/([^/]+)(\/events|\/trace)?)?$/.exec(pathname);
  if (match === null) throw new Error(`the README documents an endpoint with no handler: ${request.method} ${pathname}`);
  const [, runId, sub] = match;
  if (runId === undefined) return postRun(fetchRequest, context);
  if (sub === "/trace") return getRunTrace(runId, context);
  return sub === undefined ? getRun(runId, context) : getRunEvents(runId, request.url, context);
}

async function executeQueued(database: Database): Promise<void> {
  for (const run of await database.client.run.findMany({ where: { status: "queued" }, select: { id: true } })) await runToCompletion(database, run.id);
}

/** What each README must show at least: its number of curl commands and the endpoints they reach. */
const EXPECTED_CURLS: Readonly<Record<Readme, { count: number; endpoints: string[] }>> = {
  "server/api/README.md": {
    count: 8,
    endpoints: ["POST /api/v1/imports", "POST /api/v1/runs", "GET /api/v1/runs/:id", "GET /api/v1/runs/:id/events", "GET /api/trpc/workflows.list", "POST /api/trpc/runs.cancel", "GET /api/trpc/runs.onEvents"],
  },
  "README.md": { count: 3, endpoints: ["POST /api/v1/runs", "GET /api/v1/runs/:id", "GET /api/v1/runs/:id/events"] },
};

for (const readme of READMES) describeEachDatabase(`${readme} curl examples`, (open) => {
  it("every documented curl request succeeds on the real handlers, with the documented answer's keys", async () => {
    const { database } = await open();
    const context = async (): Promise<ApiServices> => ({ database, executor: QUEUE_ONLY_EXECUTOR });
    const { workflow } = await callerFor(database).workflows.create({ name: "readme", spec: exampleSpec("hello-agent") });
    const { run } = await callerFor(database).runs.start({ workflowId: workflow.id, input: "readme" });
    await runToCompletion(database, run.id);
    const ids = { runId: run.id, workflowId: workflow.id };
    const exported = await callerFor(database).transfer.exportRun({ runId: run.id });
    if (exported.dialect !== "rath") throw new Error("expected a bundle");
    const files = { "run.jsonl": exported.bundle.content };
    const substitute = (command: string): string => {
      const cat = /^cat (\S+)$/.exec(command);
      if (cat) return readFileSync(path.join(root, cat[1] as string), "utf8");
      const node = /^node -p '(.*)'$/.exec(command);
      if (node) return String(runInNewContext(withIds(node[1] as string, ids)));
      throw new Error(`the README substitutes a command this test does not know: $(${command})`);
    };
    const commands = [...documentedCommands(readme, "curl", substitute), ...inlineCurls(readme, substitute)];
    expect(commands.length).toBeGreaterThanOrEqual(EXPECTED_CURLS[readme].count);

    const seen: string[] = [];
    for (const command of commands) {
      const request = curlRequest(
        command.words.map((word) => withIds(word, ids)),
        files,
      );
      const label = `${request.method} ${request.url.pathname}${request.url.search}`;
      seen.push(`${request.method} ${request.url.pathname.replace(run.id, ":id")}`);
      const response = await send(request, context);
      const text = await response.text();
      expect(response.status, `${label} -> ${text.slice(0, 500)}`).toBeLessThan(300);
      if (request.url.pathname.endsWith("runs.onEvents")) {
        expect(response.headers.get("content-type")).toContain("text/event-stream");
        expect(text).toContain('"type":"run.created"');
        expect(text).toContain("event: return");
        continue;
      }
      const body = JSON.parse(text) as Record<string, unknown>;
      if (command.answer !== undefined) expectDocumentedKeys(documentedJson(command.answer), body, label);
      if (request.method === "POST" && request.url.pathname === "/api/v1/runs") {
        const started = body as { run: { id: string; input: unknown; priority: number; workflowId: string } };
        const sent = JSON.parse(request.body ?? "{}") as { input: unknown; priority?: number; workflowId?: string };
        expect(started.run.input).toEqual(sent.input);
        expect(started.run.priority).toBe(sent.priority ?? 0);
        if (sent.workflowId !== undefined) expect(started.run.workflowId).toBe(sent.workflowId);
        if (request.headers["idempotency-key"] !== undefined) {
          const again = await send(request, context);
          expect(again.status).toBe(200);
          expect(((await again.json()) as { run: { id: string } }).run.id).toBe(started.run.id);
        }
        await executeQueued(database);
      }
    }
    expect(seen).toEqual(expect.arrayContaining(EXPECTED_CURLS[readme].endpoints));
  }, 60_000);
});

for (const readme of READMES) describe(`${readme} \`npx rath run\` examples`, () => {
  const directory = mkdtempSync(path.join(os.tmpdir(), "rath-readme-cli-"));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it("print what the README shows (text lines, or one JSON object with --json)", () => {
    const commands = documentedCommands(readme, "npx", (command) => {
      throw new Error(`unexpected substitution $(${command})`);
    });
    const runs = commands.filter((command) => command.words[1] === "rath" && command.words[2] === "run");
    expect(runs.length).toBe(2);
    const environment: NodeJS.ProcessEnv = { ...process.env, RATH_DB_PATH: path.join(directory, "studio.db") };
    delete environment.DATABASE_URL;
    for (const command of runs) {
      const args = command.words.slice(2).map((word) => (word === "/tmp/demo.db" ? path.join(directory, "demo.db") : word));
      const result = spawnSync(process.execPath, [path.join(root, "bin/rath.mjs"), ...args], { cwd: root, env: environment, encoding: "utf8", timeout: 60_000 });
      expect(result.status, result.stderr).toBe(0);
      if (args.includes("--json")) {
        const printed = JSON.parse(result.stdout) as Record<string, unknown>;
        expectDocumentedKeys(documentedJson(command.answer ?? "{}"), printed, "rath run --json");
        expect(printed.status).toBe("succeeded");
      } else {
        expect(result.stdout).toMatch(/^run run_\w+\nstatus succeeded\noutput\n\(scripted demo\) You said: "hi"/);
      }
    }
  }, 120_000);
});
