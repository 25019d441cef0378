/**
 * Share links: the token store (256-bit tokens kept only as SHA-256, expiry, revocation) and what a link may do.
 * Every procedure of appRouter — found by walking the router — is called through `/api/share/<token>/trpc` with a
 * live link: only the reads of SHARE_TOKEN_READS naming the link's own run (or a session of it) pass; every
 * mutation, every other procedure, another run's id and another run's session answer 403. Dead tokens are 404.
 */
import { describe, expect, it } from "vitest";
import { ANONYMOUS_LOOPBACK, authorize, SHARE_TOKEN_READS, type Principal } from "../auth/principal";
import { createShareLink, hashShareToken, listShareLinks, revokeShareLink, verifyShareToken } from "../auth/share-links";
import type { Database } from "../db/database";
import { describeEachDatabase } from "../db/testing/test-databases";
import { runToCompletion } from "../engine/run-to-completion";
import { QUEUE_ONLY_EXECUTOR } from "../services/run-executor";
import { handleShareTrpcRequest, shareTrpcEndpoint } from "./http/share-trpc";
import { appRouter } from "./root";
import { callerFor, exampleSpec, expectApiError } from "./testing/api-harness";
import { walkRouter, type WalkedProcedure } from "./testing/router-walk";

const STUDIO = "http://127.0.0.1:3000";

/** A finished fork/merge run (several sessions) and a second run, to try a link of the first on. */
async function twoRuns(database: Database): Promise<{ runId: string; otherRunId: string; sessionId: string; otherSessionId: string }> {
  const api = callerFor(database);
  const { run } = await api.runs.start({ spec: exampleSpec("fork-merge-research"), input: "shared" });
  const { run: other } = await api.runs.start({ spec: exampleSpec("hello-agent"), input: "private" });
  await runToCompletion(database, run.id);
  await runToCompletion(database, other.id);
  const sessionId = (await api.sessions.graph({ runId: run.id })).sessions[0]?.id ?? "";
  const otherSessionId = (await api.sessions.graph({ runId: other.id })).sessions[0]?.id ?? "";
  expect(sessionId).not.toBe("");
  expect(otherSessionId).not.toBe("");
  return { runId: run.id, otherRunId: other.id, sessionId, otherSessionId };
}

function requestFor(token: string, procedure: WalkedProcedure, input: unknown): Request {
  const url = `${STUDIO}${shareTrpcEndpoint(token)}/${procedure.path}`;
  if (procedure.type === "mutation") return new Request(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(input) });
  const query = `?input=${encodeURIComponent(JSON.stringify(input))}`;
  return new Request(`${url}${query}`, { headers: procedure.type === "subscription" ? { accept: "text/event-stream" } : {} });
}

/**
 * A subscription answers 200 and streams: a refusal arrives as the stream's `serialized-error` event, an allowed
 * one streams the run's events (read until one of the two shows up).
 */
async function sseOutcome(response: Response): Promise<{ status: number; code: string | null }> {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let text = "";
  while (!/serialized-error\ndata: .*\n/.test(text) && !/\nid: \d+/.test(text)) {
    const { value, done } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
  }
  await reader.cancel();
  const code = /"code":"([a-z_]+)"/.exec(text.slice(text.indexOf("serialized-error")))?.[1] ?? null;
  return text.includes("serialized-error") ? { status: code === "forbidden" ? 403 : 500, code } : { status: 200, code: null };
}

/** The input that names the link's own run (or a session of it) for the procedure, else a generic one. */
function inputFor(path: string, ids: { runId: string; sessionId: string }): Record<string, unknown> {
  const field = SHARE_TOKEN_READS[path];
  if (field === "sessionId") return { sessionId: ids.sessionId };
  return { runId: ids.runId };
}

describe("authorize with a share-token principal", () => {
  const share: Principal = { kind: "share-token", runId: "run_1", linkId: "share_1" };
  it("allows only the listed reads, never a write, and refuses share links to the other principals nothing new", () => {
    for (const procedure of walkRouter(appRouter)) {
      const kind = procedure.type === "mutation" ? "write" : "read";
      const allowed = Object.hasOwn(SHARE_TOKEN_READS, procedure.path) && kind === "read";
      expect(authorize(share, { name: procedure.path, kind }) === null, procedure.path).toBe(allowed);
      if (!procedure.path.startsWith("account.apiKeys.")) expect(authorize(ANONYMOUS_LOOPBACK, { name: procedure.path, kind }), procedure.path).toBeNull();
    }
    expect(authorize(share, { name: "runs.get", kind: "write" })).not.toBeNull();
    expect(authorize(share, { name: "GET /api/v1/runs/[id]", kind: "read" })).not.toBeNull();
    // Every listed read exists in the router (a renamed procedure would otherwise silently drop out of the list).
    const paths = walkRouter(appRouter).map((procedure) => procedure.path);
    for (const path of Object.keys(SHARE_TOKEN_READS)) expect(paths, path).toContain(path);
  });
});

describeEachDatabase("share links", (open) => {
  it("keeps only the token's SHA-256; tokens are 256-bit base64url, distinct, listed without the token, revocable", async () => {
    const { database } = await open();
    const { runId } = await twoRuns(database);
    const first = await createShareLink(database, { runId, expiry: "never", createdBy: null });
    const second = await createShareLink(database, { runId, expiry: "7d", createdBy: "user_1" }, new Date("2026-12-01T00:00:00Z"));
    expect(first.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(first.token, "base64url")).toHaveLength(32);
    expect(first.token).not.toBe(second.token);
    const rows = await database.client.shareLink.findMany({ orderBy: { createdAt: "asc" } });
    expect(rows.map((row) => row.tokenHash).sort()).toEqual([hashShareToken(first.token), hashShareToken(second.token)].sort());
    expect(JSON.stringify(rows)).not.toContain(first.token);
    expect(JSON.stringify(rows)).not.toContain(second.token);
    expect(second.link.expiresAt?.toISOString()).toBe("2026-12-08T00:00:00.000Z");
    expect(await verifyShareToken(database, first.token)).toEqual({ runId, linkId: first.link.id });

    const listed = await listShareLinks(database, runId, new Date("2026-12-02T00:00:00Z"));
    expect(listed.map((link) => link.id).sort()).toEqual([first.link.id, second.link.id].sort());
    expect(JSON.stringify(listed)).not.toContain(first.token);
    expect(listed.find((link) => link.id === first.link.id)?.prefix).toBe(first.token.slice(0, 6));

    await revokeShareLink(database, runId, first.link.id);
    expect(await verifyShareToken(database, first.token)).toBeNull();
    await expect(revokeShareLink(database, runId, first.link.id)).rejects.toMatchObject({ code: "not_found" });
    await expect(createShareLink(database, { runId: "run_missing", expiry: "never", createdBy: null })).rejects.toMatchObject({ code: "not_found" });
  });

  it("an expired link stops working and leaves the list; an unknown or malformed token is nobody", async () => {
    const { database } = await open();
    const { runId } = await twoRuns(database);
    const made = new Date("2026-12-01T00:00:00Z");
    const { token } = await createShareLink(database, { runId, expiry: "1d", createdBy: null }, made);
    expect(await verifyShareToken(database, token, new Date("2026-12-01T23:59:59Z"))).not.toBeNull();
    expect(await verifyShareToken(database, token, new Date("2026-12-02T00:00:00Z"))).toBeNull();
    expect(await listShareLinks(database, runId, new Date("2026-12-02T00:00:01Z"))).toEqual([]);
    expect(await verifyShareToken(database, "A".repeat(43))).toBeNull();
    expect(await verifyShareToken(database, `${token}x`)).toBeNull();
    expect(await verifyShareToken(database, "")).toBeNull();
  });

  it("over HTTP a link calls only the reads of its own run: every other procedure, run and session is 403", async () => {
    const { database } = await open();
    const ids = await twoRuns(database);
    const { token } = await createShareLink(database, { runId: ids.runId, expiry: "never", createdBy: null });
    const services = async () => ({ database, executor: QUEUE_ONLY_EXECUTOR });
    const call = async (procedure: WalkedProcedure, input: unknown): Promise<{ status: number; code: string | null }> => {
      const response = await handleShareTrpcRequest(requestFor(token, procedure, input), token, services);
      if (procedure.type === "subscription" && response.status === 200) return sseOutcome(response);
      const body = (await response.json()) as { error?: { data: { code: string } } };
      return { status: response.status, code: body.error?.data.code ?? null };
    };
    const allowed: string[] = [];
    for (const procedure of walkRouter(appRouter)) {
      const own = await call(procedure, inputFor(procedure.path, ids));
      if (own.status === 200) {
        allowed.push(procedure.path);
        // The same read naming the other run (or its session) is refused.
        const other = await call(procedure, inputFor(procedure.path, { runId: ids.otherRunId, sessionId: ids.otherSessionId }));
        expect(other, `${procedure.path} on another run`).toEqual({ status: 403, code: "forbidden" });
        const missing = await call(procedure, inputFor(procedure.path, { runId: "run_missing", sessionId: "ses_missing" }));
        expect(missing.status, `${procedure.path} on a missing id`).toBe(403);
      } else {
        expect(own, procedure.path).toEqual({ status: 403, code: "forbidden" });
      }
    }
    expect(allowed.sort()).toEqual(Object.keys(SHARE_TOKEN_READS).sort());

    // What the share page reads comes back whole.
    const get = await handleShareTrpcRequest(requestFor(token, { path: "runs.get", type: "query" }, { runId: ids.runId }), token, services);
    const detail = (await get.json()) as { result: { data: { run: { id: string; input: unknown } } } };
    expect(detail.result.data.run).toMatchObject({ id: ids.runId, input: "shared" });
  });

  it("cookies and API-key headers on a share request change nothing; dead tokens answer 404 before any procedure", async () => {
    const { database } = await open();
    const ids = await twoRuns(database);
    const { token, link } = await createShareLink(database, { runId: ids.runId, expiry: "never", createdBy: null });
    const services = async () => ({ database, executor: QUEUE_ONLY_EXECUTOR });
    const cancel = new Request(`${STUDIO}${shareTrpcEndpoint(token)}/runs.cancel`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer rath_whatever", cookie: "rath.session_token=x" },
      body: JSON.stringify({ runId: ids.runId }),
    });
    expect((await handleShareTrpcRequest(cancel, token, services)).status).toBe(403);
    await revokeShareLink(database, ids.runId, link.id);
    for (const dead of [token, "A".repeat(43), "not-a-token"]) {
      const response = await handleShareTrpcRequest(requestFor(dead, { path: "runs.get", type: "query" }, { runId: ids.runId }), dead, services);
      expect(response.status, dead).toBe(404);
      const body = (await response.json()) as { error: { data: { code: string }; message: string } };
      expect(body.error.data.code).toBe("not_found");
      expect(body.error.message).toContain("share link");
    }
  });

  it("through a server-side caller a share principal reads its run and cannot manage share links", async () => {
    const { database } = await open();
    const ids = await twoRuns(database);
    const local = callerFor(database);
    const { link } = await local.shareLinks.create({ runId: ids.runId, expiry: "30d" });
    expect((await local.shareLinks.list({ runId: ids.runId })).map((entry) => entry.id)).toEqual([link.id]);
    const shared = callerFor(database, { kind: "share-token", runId: ids.runId, linkId: link.id });
    expect((await shared.sessions.graph({ runId: ids.runId })).sessions.length).toBeGreaterThan(1);
    await expectApiError(shared.shareLinks.create({ runId: ids.runId, expiry: "never" }), "FORBIDDEN");
    await expectApiError(shared.shareLinks.list({ runId: ids.runId }), "FORBIDDEN");
    await expectApiError(shared.shareLinks.revoke({ runId: ids.runId, linkId: link.id }), "FORBIDDEN");
    await expectApiError(shared.runs.list(), "FORBIDDEN");
    await expectApiError(shared.settings.providers.list(), "FORBIDDEN");
    await local.shareLinks.revoke({ runId: ids.runId, linkId: link.id });
    expect(await local.shareLinks.list({ runId: ids.runId })).toEqual([]);
  });
});
