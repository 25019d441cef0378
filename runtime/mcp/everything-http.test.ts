import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isRathError } from "../errors";
import { McpConnectionPool } from "./connection-pool";
import { loadMcpTools } from "./load-tools";
import { startEverythingHttp, toolContextFor, type EverythingHttpServer } from "./test-servers";

interface RecordedRequest {
  readonly method: string;
  readonly authorization: string | undefined;
}

/** A pass-through proxy in front of the server that records each request's method and Authorization header. */
async function startRecordingProxy(upstream: string): Promise<{ url: string; requests: RecordedRequest[]; server: Server }> {
  const target = new URL(upstream);
  const requests: RecordedRequest[] = [];
  const server = createServer((incoming, outgoing) => {
    requests.push({ method: incoming.method ?? "", authorization: incoming.headers.authorization });
    const forwarded = request(
      { host: target.hostname, port: target.port, path: incoming.url, method: incoming.method, headers: { ...incoming.headers, host: target.host } },
      (response) => {
        outgoing.writeHead(response.statusCode ?? 502, response.headers);
        response.pipe(outgoing);
      },
    );
    forwarded.on("error", () => outgoing.destroy());
    incoming.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return { url: `http://127.0.0.1:${port}${target.pathname}`, requests, server };
}

/** The real server-everything in streamable HTTP mode, as a child process on a free local port. */
describe("MCP tools over streamable HTTP", () => {
  let server: EverythingHttpServer | null = null;
  let proxy: Server | null = null;
  const pools: McpConnectionPool[] = [];

  beforeAll(async () => {
    server = await startEverythingHttp();
  });

  afterAll(async () => {
    await Promise.all(pools.map((pool) => pool.closeAll()));
    proxy?.closeAllConnections();
    await new Promise((resolve) => (proxy === null ? resolve(null) : proxy.close(resolve)));
    await server?.stop();
  });

  it("lists and calls tools over one HTTP session, sending the configured headers", async () => {
    if (server === null) throw new Error("server did not start");
    const recording = await startRecordingProxy(server.url);
    proxy = recording.server;
    const pool = new McpConnectionPool();
    pools.push(pool);
    const config = { ...server.config({ Authorization: "Bearer http-secret-token" }), url: recording.url };
    const tools = await loadMcpTools(config, pool, { include: ["echo", "get-sum"] });
    expect(tools.map((tool) => tool.name)).toEqual(["echo", "get-sum"]);
    await expect(tools[0]?.execute({ message: "over http" }, toolContextFor())).resolves.toEqual({ text: "Echo: over http" });
    await expect(tools[1]?.execute({ a: 20, b: 22 }, toolContextFor())).resolves.toEqual({ text: "The sum of 20 and 22 is 42." });
    expect(pool.stats()).toEqual({
      connectionsOpened: 1,
      servers: [{ name: "everything-http", transport: "http", state: "open", connectionsOpened: 1, pid: null }],
    });
    expect(recording.requests.length).toBeGreaterThanOrEqual(4);
    expect(recording.requests.every((recorded) => recorded.authorization === "Bearer http-secret-token")).toBe(true);
    expect(recording.requests.some((recorded) => recorded.method === "DELETE")).toBe(false);
    await pool.closeAll();
    expect(pool.stats().servers[0]?.state).toBe("closed");
    expect(recording.requests.at(-1)?.method).toBe("DELETE");
  });

  it("reports an unreachable endpoint as mcp_error naming the server, without headers or query secrets", async () => {
    const pool = new McpConnectionPool({ connectTimeoutMs: 5_000 });
    pools.push(pool);
    const error = await pool
      .get({ name: "gone", transport: "http", url: "http://127.0.0.1:1/mcp?api_key=query-secret", headers: { Authorization: "Bearer header-secret" } })
      .catch((caught: unknown) => caught);
    expect(isRathError(error, "mcp_error")).toBe(true);
    const message = (error as Error).message;
    expect(message).toContain("could not connect to MCP server 'gone' (http: http://127.0.0.1:1/mcp)");
    expect(message).not.toContain("query-secret");
    expect(message).not.toContain("header-secret");
  });
});
