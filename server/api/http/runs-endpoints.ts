/**
 * The plain HTTP API for headless callers (curl, scripts), served by app/api/v1/runs/**:
 * POST /api/v1/runs (201 created, 200 for a repeated Idempotency-Key), GET /api/v1/runs/:id and
 * GET /api/v1/runs/:id/events?after=N&limit=M and POST /api/v1/runs/:id/fork (201 created, 200 for a repeated
 * Idempotency-Key). Each handler takes the request and a context factory (awaited inside
 * the handler, so a database that cannot be opened is a mapped 500 too); tests and the Next.js routes share them.
 */
import { toOtlpJson } from "../../services/otlp-json";
import { loadRunTrace } from "../../services/run-trace";
import { z } from "zod";
import { RathError } from "../../../runtime/errors";
import { getRunDetail, runEvents, startRun } from "../../services/run-service";
import { forkFromChunk, ForkEdits } from "../../services/fork-service";
import type { ApiServices } from "./api-door";
import { errorResponse, jsonResponse } from "./json-response";

/** Body of POST /api/v1/runs; unknown keys are refused (a misspelt `priority` or `inputs` must not be ignored silently). */
export const PostRunBody = z.strictObject({
  workflowId: z.string().min(1).optional(),
  revisionId: z.string().min(1).optional(),
  spec: z.unknown().optional(),
  input: z.unknown().default(null),
  priority: z.number().int().min(-1000).max(1000).optional(),
  tokenBudget: z.number().int().positive().optional(),
  timeoutMs: z.number().int().positive().optional(),
});

async function readJson(request: Request): Promise<unknown> {
  const text = await request.text();
  if (text.trim() === "") throw new RathError("invalid_argument", "expected a JSON object body, found an empty body");
  try {
    return JSON.parse(text);
  } catch {
    throw new RathError("invalid_argument", "expected a JSON object body, found text that is not valid JSON");
  }
}

/** POST /api/v1/runs: starts a run of a saved workflow or an inline spec; honours the Idempotency-Key header. */
export async function postRun(request: Request, createContext: () => Promise<ApiServices>): Promise<Response> {
  try {
    const context = await createContext();
    const body = PostRunBody.parse(await readJson(request));
    const key = idempotencyKeyOf(request);
    const started = await startRun(context.database, context.executor, {
      ...body,
      ...(key === undefined ? {} : { idempotencyKey: key }),
    });
    return jsonResponse(started.created ? 201 : 200, { run: started.run, created: started.created }, { location: `/api/v1/runs/${started.run.id}` });
  } catch (error) {
    return errorResponse(error, "POST /api/v1/runs");
  }
}

/** Body of POST /api/v1/runs/:id/fork: the session of that run, the chunk, and what to change; unknown keys are refused. */
export const PostForkBody = z.strictObject({
  sessionId: z.string().min(1),
  chunkIndex: z.number().int().nonnegative(),
  edits: ForkEdits.default({}),
});

function idempotencyKeyOf(request: Request): string | undefined {
  const key = request.headers.get("idempotency-key")?.trim();
  if (key !== undefined && (key === "" || key.length > 200)) {
    throw new RathError("invalid_argument", `Idempotency-Key must be 1 to 200 characters; found ${key.length}`);
  }
  return key;
}

/** POST /api/v1/runs/:id/fork: a new run forked from a session of run :id at a chunk; honours the Idempotency-Key header. */
export async function postRunFork(runId: string, request: Request, createContext: () => Promise<ApiServices>): Promise<Response> {
  try {
    const context = await createContext();
    const body = PostForkBody.parse(await readJson(request));
    const key = idempotencyKeyOf(request);
    const forked = await forkFromChunk(context.database, context.executor, { ...body, ...(key === undefined ? {} : { idempotencyKey: key }) }, runId);
    return jsonResponse(forked.created ? 201 : 200, forked, { location: `/api/v1/runs/${forked.run.id}` });
  } catch (error) {
    return errorResponse(error, "POST /api/v1/runs/:id/fork");
  }
}

/** GET /api/v1/runs/:id: the run's status, output and error (and pending interrupts). */
export async function getRun(runId: string, createContext: () => Promise<ApiServices>): Promise<Response> {
  try {
    const context = await createContext();
    const detail = await getRunDetail(context.database, runId);
    return jsonResponse(200, detail);
  } catch (error) {
    return errorResponse(error, "GET /api/v1/runs/:id");
  }
}

const EventsQuery = z.object({
  after: z.coerce.number().int().nonnegative().default(0),
  limit: z.coerce.number().int().min(1).max(1000).default(200),
});

/** GET /api/v1/runs/:id/events?after=N&limit=M: the events after seq N, in order, and where to continue. */
export async function getRunEvents(runId: string, url: URL, createContext: () => Promise<ApiServices>): Promise<Response> {
  try {
    const context = await createContext();
    const query = EventsQuery.parse({
      after: url.searchParams.get("after") ?? undefined,
      limit: url.searchParams.get("limit") ?? undefined,
    });
    const page = await runEvents(context.database, { runId, afterSeq: query.after, limit: query.limit });
    return jsonResponse(200, page);
  } catch (error) {
    return errorResponse(error, "GET /api/v1/runs/:id/events");
  }
}

/** GET /api/v1/runs/:id/trace: the run as OTLP/JSON traces (OpenTelemetry GenAI conventions; run-trace.ts). */
export async function getRunTrace(runId: string, createContext: () => Promise<ApiServices>): Promise<Response> {
  try {
    const context = await createContext();
    return jsonResponse(200, toOtlpJson(await loadRunTrace(context.database, runId)));
  } catch (error) {
    return errorResponse(error, "GET /api/v1/runs/:id/trace");
  }
}
