/**
 * The studio keeps an idle keep-alive connection open longer than Node's 5 s default (bin/rath-serve.mjs passes
 * --keepAliveTimeout 65000). A pooling client that reuses a connection after 5 s of quiet (Playwright's request
 * context did, between two tRPC calls around a run) otherwise races the server's close and fails with ECONNRESET.
 */
import { expect, test } from "@playwright/test";
import http from "node:http";
import type { Socket } from "node:net";
import { studioPort } from "./studio-server";

const PORT = studioPort();

/** A GET of `pathname` through `agent`; resolves with the status and the socket it went over. */
function get(agent: http.Agent, pathname: string): Promise<{ status: number; socket: Socket }> {
  return new Promise((resolve, reject) => {
    const request = http.get({ host: "127.0.0.1", port: PORT, path: pathname, agent }, (response) => {
      response.resume();
      response.on("end", () => resolve({ status: response.statusCode ?? 0, socket: request.socket as Socket }));
    });
    request.on("error", reject);
  });
}

test("an idle keep-alive connection is still open after 6 s and serves the next request", async () => {
  test.setTimeout(30_000);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const first = await get(agent, "/api/trpc/workflows.list");
    expect(first.status).toBe(200);
    let closedAt: number | null = null;
    const idleSince = Date.now();
    first.socket.once("close", () => (closedAt = Date.now() - idleSince));
    await new Promise((resolve) => setTimeout(resolve, 6_000));
    expect(closedAt, "the server closed the idle connection").toBeNull();
    const second = await get(agent, "/api/trpc/workflows.list");
    expect(second.status).toBe(200);
    expect(second.socket).toBe(first.socket);
  } finally {
    agent.destroy();
  }
});
