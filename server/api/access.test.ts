/**
 * Access to the API on a studio that requires sign-in (RATH_AUTH=required, or any address but loopback): every
 * tRPC procedure — found by walking the router object, nested routers and subscriptions included — and every
 * app/api route — found in the file system — answers 401 to a caller without credentials, over HTTP (the door)
 * and through a server-side caller (the `requireAccess` middleware). The same calls on a loopback studio without
 * sign-in are not refused, so the 401s are the policy's doing.
 */
import { TRPCError } from "@trpc/server";
import { describe, expect, it } from "vitest";
import { describeEachDatabase } from "../db/testing/test-databases";
import { QUEUE_ONLY_EXECUTOR } from "../services/run-executor";
import { sharedDatabase } from "../services/shared-database";
import { createAccount } from "../auth/accounts";
import { createApiKey, revokeApiKey } from "../auth/api-keys";
import { loopbackPolicy, signInPolicy } from "../auth/testing/policies";
import { handleTrpcRequest } from "./http/trpc-handler";
import { discoverAppApiRoutes, type DiscoveredRoute } from "./http/testing/app-api-routes";
import { appRouter } from "./root";
import { callerFor } from "./testing/api-harness";
import { useTemporaryStudio } from "./testing/temporary-studio";
import { walkRouter, type WalkedProcedure } from "./testing/router-walk";

const STUDIO = "http://127.0.0.1:3000";

/** Routes that answer without credentials, by design: signing in and the first-run account (loopback only). */
const PUBLIC_ROUTES = ["POST app/api/auth/setup/route.ts", "POST app/api/auth/sign-in/route.ts"];

/** Routes whose credential is in their path (a share link's token): a made-up token is a 404 (share-access.test.ts). */
const SHARE_TOKEN_ROUTES = ["GET app/api/share/[token]/trpc/[trpc]/route.ts", "POST app/api/share/[token]/trpc/[trpc]/route.ts"];

/** The HTTP request a tRPC client makes for a procedure (an empty object as input; access is checked first). */
function requestFor(procedure: WalkedProcedure, headers: Record<string, string> = {}): Request {
  const url = `${STUDIO}/api/trpc/${procedure.path}`;
  if (procedure.type === "mutation") return new Request(url, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: "{}" });
  const input = `?input=${encodeURIComponent("{}")}`;
  return new Request(`${url}${input}`, { headers: procedure.type === "subscription" ? { accept: "text/event-stream", ...headers } : headers });
}

describe("the router walk", () => {
  it("finds every procedure of every nested router, subscriptions included", () => {
    const walked = walkRouter(appRouter);
    expect(walked.map((procedure) => procedure.path).sort()).toEqual(Object.keys(appRouter._def.procedures).sort());
    expect(walked).toContainEqual({ path: "runs.onEvents", type: "subscription" });
    expect(walked).toContainEqual({ path: "settings.providers.upsert", type: "mutation" });
    expect(walked.length).toBeGreaterThan(25);
  });
});

describeEachDatabase("access without credentials", (open) => {
  it("over HTTP, every procedure answers 401 unauthenticated on a sign-in-required studio", async () => {
    const { database } = await open();
    const services = async () => ({ database, executor: QUEUE_ONLY_EXECUTOR });
    for (const procedure of walkRouter(appRouter)) {
      const response = await handleTrpcRequest(requestFor(procedure), { services, policy: signInPolicy() });
      expect(response.status, procedure.path).toBe(401);
      const body = (await response.json()) as { error: { data: { code: string; path: string } } };
      expect(body.error.data, procedure.path).toMatchObject({ code: "unauthenticated", path: procedure.path });
    }
  });

  it("through a server-side caller, the requireAccess middleware refuses every procedure without a principal", async () => {
    const { database } = await open();
    const caller = callerFor(database, null) as unknown as Record<string, unknown>;
    for (const procedure of walkRouter(appRouter)) {
      const call = procedure.path.split(".").reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], caller) as (input: unknown) => Promise<unknown>;
      const error = await call({}).then(
        () => null,
        (caught: unknown) => caught,
      );
      expect(error, procedure.path).toBeInstanceOf(TRPCError);
      expect((error as TRPCError).code, procedure.path).toBe("UNAUTHORIZED");
    }
  });

  it("with a valid API key no procedure answers 401 (person-only ones answer 403)", async () => {
    const { database } = await open();
    const services = async () => ({ database, executor: QUEUE_ONLY_EXECUTOR });
    const account = await createAccount(database, { email: "walker@example.com", name: "Walker", password: "walk-the-router" });
    const { key } = await createApiKey(database, account.id, "router walk");
    const statuses = new Map<string, number>();
    for (const procedure of walkRouter(appRouter)) {
      const response = await handleTrpcRequest(requestFor(procedure, { authorization: `Bearer ${key}` }), { services, policy: signInPolicy() });
      statuses.set(procedure.path, response.status);
      await response.body?.cancel();
    }
    expect([...statuses].filter(([, status]) => status === 401)).toEqual([]);
    expect(statuses.get("workflows.list")).toBe(200);
    expect(statuses.get("account.me")).toBe(200);
    expect(statuses.get("account.apiKeys.list")).toBe(403);
  });

  it("on a loopback studio without sign-in the same requests get through the door", async () => {
    const { database } = await open();
    const services = async () => ({ database, executor: QUEUE_ONLY_EXECUTOR });
    const statuses = new Map<string, number>();
    for (const procedure of walkRouter(appRouter)) {
      const response = await handleTrpcRequest(requestFor(procedure), { services, policy: loopbackPolicy() });
      statuses.set(procedure.path, response.status);
      await response.body?.cancel();
    }
    expect([...statuses.values()].filter((status) => status === 401)).toEqual([]);
    expect(statuses.get("workflows.list")).toBe(200);
  });
});

describe("app/api routes without credentials", () => {
  useTemporaryStudio("rath-api-access", { RATH_IN_PROCESS_WORKER: "0" });

  for (const environment of [
    { RATH_HOST: "127.0.0.1", RATH_AUTH: "required" },
    { RATH_HOST: "0.0.0.0", RATH_AUTH: "" },
  ]) {
    it(`every route answers 401 with the JSON error shape (RATH_HOST=${environment.RATH_HOST} RATH_AUTH=${environment.RATH_AUTH || "auto"})`, async () => {
      Object.assign(process.env, environment);
      const routes = await discoverAppApiRoutes();
      expect(routes.length).toBeGreaterThanOrEqual(5);
      const publicRoutes: string[] = [];
      const shareRoutes: string[] = [];
      for (const route of routes) {
        if ((route.handler as { access?: string }).access === "public") {
          publicRoutes.push(`${route.method} ${route.file}`);
          continue;
        }
        if ((route.handler as { access?: string }).access === "share-token") {
          shareRoutes.push(`${route.method} ${route.file}`);
          const response = await route.handler(new Request(`${STUDIO}/api/share/x/trpc/runs.get?input=%7B%7D`), { params: Promise.resolve(route.params) });
          expect(response.status, route.file).toBe(404);
          continue;
        }
        const state = !["GET", "HEAD", "OPTIONS"].includes(route.method);
        const pathname = route.file.includes("[trpc]") ? "/api/trpc/workflows.list" : route.pathname;
        const response = await route.handler(
          new Request(`${STUDIO}${pathname}`, { method: route.method, ...(state ? { headers: { "content-type": "application/json" }, body: "{}" } : {}) }),
          { params: Promise.resolve(route.params) },
        );
        expect(response.status, `${route.method} ${route.file}`).toBe(401);
        const body = (await response.json()) as { error: { code: string | number; message: string; data?: { code: string } } };
        expect(body.error.data?.code ?? body.error.code, route.file).toBe("unauthenticated");
        expect(body.error.message, route.file).toContain("sign-in required");
      }
      // The routes one gets credentials with are the only ones meant to answer strangers (see public-api-route.ts).
      expect(publicRoutes.sort()).toEqual(PUBLIC_ROUTES);
      expect(shareRoutes.sort()).toEqual(SHARE_TOKEN_ROUTES);
    });
  }

  it("with a valid API key no route answers 401; with a revoked or made-up key every one does", async () => {
    Object.assign(process.env, { RATH_HOST: "0.0.0.0", RATH_AUTH: "" });
    const database = await sharedDatabase();
    const account = await createAccount(database, { email: "routes@example.com", name: "Routes", password: "route-walker" });
    const { key, apiKey } = await createApiKey(database, account.id, "route walk");
    const call = (route: DiscoveredRoute, authorization: string): Promise<Response> => {
      const state = !["GET", "HEAD", "OPTIONS"].includes(route.method);
      const pathname = route.file.includes("[trpc]") ? "/api/trpc/workflows.list" : route.pathname;
      const headers = { authorization, ...(state ? { "content-type": "application/json" } : {}) };
      return route.handler(new Request(`${STUDIO}${pathname}`, { method: route.method, headers, ...(state ? { body: "{}" } : {}) }), { params: Promise.resolve(route.params) });
    };
    const routes = (await discoverAppApiRoutes()).filter((route) => !["public", "share-token"].includes((route.handler as { access?: string }).access ?? ""));
    for (const route of routes) {
      const response = await call(route, `Bearer ${key}`);
      expect(response.status, `${route.method} ${route.file}`).not.toBe(401);
      await response.body?.cancel();
    }
    await revokeApiKey(database, account.id, apiKey.id);
    for (const authorization of [`Bearer ${key}`, `Bearer rath_${"A".repeat(43)}`]) {
      for (const route of routes) {
        const response = await call(route, authorization);
        expect(response.status, `${route.method} ${route.file}`).toBe(401);
        await response.body?.cancel();
      }
    }
  });
});
