import { describe, expect, it } from "vitest";
import { isRathError } from "../../runtime/errors";
import { checkRequest, parseHostHeader } from "./request-checks";
import { loopbackPolicy, signInPolicy } from "./testing/policies";

function request(method: string, headers: Record<string, string>, url = "http://127.0.0.1:3000/api/v1/runs"): Request {
  return new Request(url, { method, headers, ...(method === "GET" ? {} : { body: "{}" }) });
}

function refusal(make: () => void): { code: string; message: string } | null {
  try {
    make();
    return null;
  } catch (error) {
    if (!isRathError(error)) throw error;
    return { code: error.code, message: error.message };
  }
}

describe("request checks", () => {
  it("DNS rebinding: a loopback studio refuses a foreign Host header, whatever the forwarded headers say", () => {
    const rebound = request("GET", { host: "evil.example:3000", "x-forwarded-host": "localhost:3000", "x-forwarded-for": "127.0.0.1", forwarded: "for=127.0.0.1;host=localhost" });
    expect(refusal(() => checkRequest(rebound, loopbackPolicy()))).toMatchObject({ code: "forbidden", message: expect.stringContaining("'evil.example'") });
    for (const host of ["localhost:3000", "127.0.0.1:3101", "[::1]:3000", "LOCALHOST"]) {
      expect(refusal(() => checkRequest(request("GET", { host }), loopbackPolicy())), host).toBeNull();
    }
    expect(refusal(() => checkRequest(request("GET", { host: "localhost.evil.example" }), loopbackPolicy()))?.code).toBe("forbidden");
  });

  it("refuses a cross-site text/plain POST with 403 (forbidden) before looking at its content type", () => {
    const crossSite = request("POST", { host: "127.0.0.1:3000", origin: "https://evil.example", "content-type": "text/plain" });
    expect(refusal(() => checkRequest(crossSite, loopbackPolicy()))).toMatchObject({ code: "forbidden", message: expect.stringContaining("https://evil.example") });
    const nullOrigin = request("POST", { host: "127.0.0.1:3000", origin: "null", "content-type": "application/json" });
    expect(refusal(() => checkRequest(nullOrigin, loopbackPolicy()))?.code).toBe("forbidden");
    const otherPort = request("POST", { host: "localhost:3000", origin: "http://localhost:8080", "content-type": "application/json" });
    expect(refusal(() => checkRequest(otherPort, loopbackPolicy()))?.code).toBe("forbidden");
    const fetchMetadata = request("POST", { host: "localhost:3000", "sec-fetch-site": "cross-site", "content-type": "application/json" });
    expect(refusal(() => checkRequest(fetchMetadata, loopbackPolicy()))?.message).toContain("Sec-Fetch-Site is 'cross-site'");
  });

  it("state-changing requests need application/json (tRPC's FormData and octet-stream inputs too): 415", () => {
    for (const type of ["text/plain", "multipart/form-data; boundary=x", "application/octet-stream", "application/x-www-form-urlencoded"]) {
      const sameOrigin = request("POST", { host: "localhost:3000", origin: "http://localhost:3000", "content-type": type });
      expect(refusal(() => checkRequest(sameOrigin, loopbackPolicy())), type).toMatchObject({ code: "unsupported_media_type", message: `expected content-type application/json; found ${type.split(";")[0]}` });
    }
    const untyped = new Request("http://localhost:3000/api/v1/runs", { method: "POST", headers: { host: "localhost:3000" }, body: new Uint8Array([123, 125]) });
    expect(refusal(() => checkRequest(untyped, loopbackPolicy()))?.message).toContain("found none");
  });

  it("lets same-origin browser requests, non-browser clients without Origin and bearer-key callers through", () => {
    const browser = request("POST", { host: "localhost:3000", origin: "http://localhost:3000", "sec-fetch-site": "same-origin", "content-type": "application/json; charset=utf-8" });
    expect(refusal(() => checkRequest(browser, loopbackPolicy()))).toBeNull();
    const curl = request("POST", { host: "127.0.0.1:3000", "content-type": "application/json" });
    expect(refusal(() => checkRequest(curl, loopbackPolicy()))).toBeNull();
    const script = request("POST", { host: "studio.example.com", origin: "https://elsewhere.example", authorization: "Bearer rath_x", "content-type": "application/json" });
    expect(refusal(() => checkRequest(script, signInPolicy()))?.code).toBe("forbidden");
    const exposedScript = request("POST", { host: "studio.example.com", origin: "https://elsewhere.example", authorization: "Bearer rath_x", "content-type": "application/json" });
    expect(refusal(() => checkRequest(exposedScript, { ...signInPolicy(), allowedHostnames: null }))).toBeNull();
    expect(refusal(() => checkRequest(request("GET", { host: "localhost:3000", origin: "https://evil.example" }), loopbackPolicy()))).toBeNull();
  });

  it("parses Host headers, IPv6 included, and rejects malformed ones", () => {
    expect(parseHostHeader("[::1]:3000")).toEqual({ hostname: "[::1]", port: "3000" });
    expect(parseHostHeader("Example.COM")).toEqual({ hostname: "example.com", port: null });
    expect(parseHostHeader("a b")).toBeNull();
    expect(parseHostHeader("user@host")).toBeNull();
  });
});
