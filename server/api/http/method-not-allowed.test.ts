import { NextRequest } from "next/server";
import { describe, expect, it } from "vitest";
import * as importsRoute from "../../../app/api/v1/imports/route";
import * as runRoute from "../../../app/api/v1/runs/[id]/route";
import * as eventsRoute from "../../../app/api/v1/runs/[id]/events/route";
import * as runsRoute from "../../../app/api/v1/runs/route";
import { proxy } from "../../../proxy";
import { useTemporaryStudio } from "../testing/temporary-studio";
import { apiRoute } from "./api-route";
import { hasValidPercentEncoding } from "./path-encoding";

type Handler = (request: Request) => Promise<Response>;

// As `npm run studio` starts it (loopback, no sign-in), on a temp database: the 405 handlers pass the door first.
useTemporaryStudio("rath-405", { RATH_HOST: "127.0.0.1" });

describe("405 in the JSON error shape", () => {
  const cases: Array<[string, Record<string, unknown>, string[], string]> = [
    ["/api/v1/runs", runsRoute, ["GET", "PUT", "PATCH", "DELETE"], "POST"],
    ["/api/v1/runs/run_1", runRoute, ["POST", "PUT", "PATCH", "DELETE"], "GET, HEAD"],
    ["/api/v1/runs/run_1/events", eventsRoute, ["POST", "PUT", "PATCH", "DELETE"], "GET, HEAD"],
    ["/api/v1/imports", importsRoute, ["GET", "PUT", "PATCH", "DELETE"], "POST"],
  ];
  for (const [routePath, route, refused, allow] of cases) {
    it(`${routePath}: ${refused.join(", ")} answer 405 {error:{code,message}} with Allow: ${allow}`, async () => {
      for (const method of refused) {
        const handler = route[method] as Handler;
        const write = method !== "GET";
        const response = await handler(
          new Request(`http://localhost${routePath}`, { method, ...(write ? { headers: { "content-type": "application/json" }, body: "{}" } : {}) }),
        );
        expect(response.status).toBe(405);
        expect(response.headers.get("content-type")).toContain("application/json");
        expect(response.headers.get("allow")).toBe(allow);
        const body = (await response.json()) as { error: { code: string; message: string } };
        expect(body.error.code).toBe("method_not_allowed");
        expect(body.error.message).toMatch(new RegExp(`^${method} /api/v1/\\S+ is not allowed; expected (GET|POST)$`));
      }
    });
  }
});

describe("a malformed percent-encoded path answers 400 in the JSON error shape", () => {
  it("tells valid from malformed escapes", () => {
    expect(hasValidPercentEncoding("/api/v1/runs/run_%41bc")).toBe(true);
    expect(hasValidPercentEncoding("/api/v1/runs/%E0%A4%A")).toBe(false);
    expect(hasValidPercentEncoding("/api/v1/runs/%zz")).toBe(false);
  });

  it("in the proxy, before Next.js decodes the route parameter, and in every API route", async () => {
    const viaProxy = await proxy(new NextRequest("http://127.0.0.1:3000/api/v1/runs/%E0%A4%A"));
    expect(viaProxy.status).toBe(400);
    const body = (await viaProxy.json()) as { error: { code: string; message: string } };
    expect(body.error).toEqual({ code: "invalid_argument", message: expect.stringContaining("malformed percent-encoding") });
    // A well-formed API path passes through untouched (the route makes its own checks).
    const passed = await proxy(new NextRequest("http://127.0.0.1:3000/api/v1/runs/run_1"));
    expect(passed.headers.get("x-middleware-next")).toBe("1");

    const route = apiRoute<{ id: string }>({ name: "GET /test/:id" }, async () => new Response("reached"));
    const undecodable = Promise.reject(new URIError("URI malformed"));
    undecodable.catch(() => undefined);
    const direct = await route(new Request("http://localhost/api/v1/runs/%E0%A4%A"), { params: undecodable });
    expect(direct.status).toBe(400);
    expect(((await direct.json()) as { error: { code: string } }).error.code).toBe("invalid_argument");
  });
});
