/**
 * Fixtures of the run-view e2e specs, declared as data: a scripted Chat Completions server (runs in the test
 * process; the studio calls it like any OpenAI-compatible API) whose model name chooses the behaviour, provider
 * settings that point at it, inline workflow specs, and tRPC calls through the page's request context.
 */
import { expect, test, type APIRequestContext } from "@playwright/test";
import { execFileSync } from "node:child_process";
import { startChatCompletionsServer, type ChatCompletionsServer } from "../runtime/testing/chat-completions-server";
import { studioDatabaseFile } from "./studio-server";
import { trpcMutation, trpcQuery } from "./trpc";

// Specs import these from here too (one implementation: ./trpc.ts).
export { trpcMutation, trpcQuery };

/** Model names of the scripted server: each behaves differently. */
export const MODELS = { slow: "slow-model", fast: "fast-model", blocker: "blocker-model" } as const;

interface WireMessage {
  role: string;
  content?: string | null;
}

/**
 * Starts the scripted model: `slow-model` answers after 1.2 s, `blocker-model` after 8 s (it keeps the studio's one
 * embedded worker busy), `fast-model` at once. Offered `read_workspace_file`, it first asks for a file that does not
 * exist (a failed tool call), then answers.
 */
export async function startScriptedModel(): Promise<ChatCompletionsServer> {
  return startChatCompletionsServer({
    models: Object.values(MODELS),
    script: (request, index) => {
      const body = request.body as { model?: string; messages?: WireMessage[]; tools?: Array<{ function?: { name?: string } }> };
      const messages = body.messages ?? [];
      const last = messages[messages.length - 1];
      const delayMs = body.model === MODELS.slow ? 1200 : body.model === MODELS.blocker ? 8000 : 0;
      const reads = (body.tools ?? []).some((tool) => tool.function?.name === "read_workspace_file");
      if (reads && last?.role !== "tool") return { type: "completion", toolCalls: [{ name: "read_workspace_file", arguments: { path: "does-not-exist.txt" } }], delayMs };
      return { type: "completion", content: `Finding ${index + 1} from ${body.model ?? "model"}.`, delayMs };
    },
  });
}

/**
 * For a spec's tests: a scripted model started before them and a provider named `<prefix>-<time>` pointing at it
 * (a fresh name per worker: the studio caches providers by name, and a restarted worker serves on a new port).
 * Returns the provider's name.
 */
export function scriptedProviderForSpec(prefix: string): string {
  const name = `${prefix}-${Date.now()}`;
  let model: ChatCompletionsServer | null = null;
  test.beforeAll(async ({ request }) => {
    model = await startScriptedModel();
    await registerProvider(request, name, model);
  });
  test.afterAll(async () => {
    await model?.close();
  });
  return name;
}

/** Stores a provider named `name` that points at the scripted server. */
export async function registerProvider(request: APIRequestContext, name: string, server: ChatCompletionsServer): Promise<void> {
  await trpcMutation(request, "settings.providers.upsert", { name, kind: "openai", baseUrl: server.baseURL, model: MODELS.fast, apiKey: "sk-e2e-not-a-real-key" });
}

type SpecNode = { id: string; type: string; label?: string; config: Record<string, unknown> };
type SpecEdge = { id: string; source: string; sourcePort: string; target: string; targetPort: string };

function edge(source: string, target: string, targetPort = "in"): SpecEdge {
  return { id: `e-${source}-${target}-${targetPort}`, source, sourcePort: "out", target, targetPort };
}

function agent(id: string, label: string): SpecNode {
  return { id, type: "agent", label, config: { name: id, instructions: `You are ${label}.`, maxRounds: 4 } };
}

/**
 * A chain of `length` agents answering one after the other (each answer takes the model's delay). With `gate`, an
 * approval comes first: the run waits there until the test decides, so a page can be open before the chain runs.
 */
export function chainSpec(name: string, provider: string, model: string, length: number, gate = false): unknown {
  const agents = Array.from({ length }, (_, index) => agent(`step${index + 1}`, `Step ${index + 1}`));
  const gates = gate ? [{ id: "gate", type: "approval", label: "Start gate", config: { prompt: "Start the chain?", allowEdit: false } }] : [];
  const ids = ["input", ...gates.map((node) => node.id), ...agents.map((node) => node.id), "output"];
  return {
    version: 1,
    name,
    settings: { defaultProvider: provider, defaultModel: model, maxSteps: Math.max(50, length + 10) },
    nodes: [{ id: "input", type: "input", label: "Question", config: { defaultText: "Go." } }, ...gates, ...agents, { id: "output", type: "output", label: "Answer", config: {} }],
    edges: ids.slice(1).map((target, index) => edge(ids[index] as string, target)),
  };
}

/** A fork of two branches: a reader whose tool call fails, and a writer; merged into the output. */
export function failingBranchSpec(name: string, provider: string): unknown {
  return {
    version: 1,
    name,
    settings: { defaultProvider: provider, defaultModel: MODELS.fast, maxSteps: 50 },
    nodes: [
      { id: "input", type: "input", label: "Question", config: { defaultText: "Read the notes." } },
      { id: "fork", type: "fork", label: "Split", config: { branches: 2 } },
      agent("reader", "Reader"),
      { id: "read", type: "tool", label: "Read file", config: { kind: "builtin", name: "read_workspace_file" } },
      agent("writer", "Writer"),
      { id: "merge", type: "merge", label: "Join", config: {} },
      { id: "output", type: "output", label: "Answer", config: {} },
    ],
    edges: [edge("input", "fork"), edge("fork", "reader"), edge("fork", "writer"), edge("read", "reader", "tools"), edge("reader", "merge"), edge("writer", "merge"), edge("merge", "output")],
  };
}

/** A run as `runs.start` returns it. */
export interface StartedRun {
  run: { id: string; status: string; workflowId: string };
}

/** A session of `sessions.graph`. */
export interface GraphSession {
  id: string;
  nodeId: string | null;
  chunkCount: number;
  lineage: { parent_session_ids: string[]; lineage_kind: string; lineage_extras: Array<[string, unknown]> };
  toolErrors: { count: number; firstIndex: number } | null;
}

/** Reads the run's session graph. */
export async function sessionGraph(request: APIRequestContext, runId: string): Promise<{ sessions: GraphSession[]; run: { status: string } }> {
  return trpcQuery(request, "sessions.graph", { runId });
}

/** Waits until the run has the status (through the API). */
export async function waitForStatus(request: APIRequestContext, runId: string, statuses: readonly string[]): Promise<string> {
  let status = "";
  await expect
    .poll(
      async () => {
        status = (await trpcQuery<{ run: { status: string } }>(request, "runs.get", { runId })).run.status;
        return statuses.includes(status);
      },
      { timeout: 60_000, intervals: [250, 500, 1000] },
    )
    .toBe(true);
  return status;
}

/** Runs `e2e/fixtures/<script>` as its own process on the studio's database (this worker's, see studio-server.ts); returns its last line, parsed. */
export function runDatabaseFixture<T>(script: string, ...args: string[]): T {
  const output = execFileSync("npx", ["tsx", `e2e/fixtures/${script}`, studioDatabaseFile(), ...args], { encoding: "utf8" });
  return JSON.parse(output.trim().split("\n").pop() as string) as T;
}
