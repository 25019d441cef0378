import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One HTTP request a test server received, as tests assert on it (header names lower-case, JSON body parsed). */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  /** The parsed JSON body, the raw text when it was not JSON, or null when empty. */
  body: unknown;
}

/** A running test server: where to point a client, what it received, and how to stop it. */
export interface HttpTestServer {
  /** `http://127.0.0.1:<port>` without a trailing slash. */
  origin: string;
  port: number;
  /** Every request received so far, in arrival order (live array). */
  requests: RecordedRequest[];
  close(): Promise<void>;
}

/** Handles one recorded request; may leave the response open (a "hang") until the server closes. */
export type TestRequestHandler = (request: RecordedRequest, response: ServerResponse) => void | Promise<void>;

/**
 * Starts a real node:http server on 127.0.0.1 with a free port (listen(0)) that records each request and
 * passes it to `handler`. `close()` also destroys open connections, so hanging responses end.
 */
export async function startHttpTestServer(handler: TestRequestHandler): Promise<HttpTestServer> {
  const requests: RecordedRequest[] = [];
  const server = createServer((incoming, response) => {
    void readRequest(incoming).then(async (request) => {
      requests.push(request);
      try {
        await handler(request, response);
      } catch (error) {
        if (!response.headersSent) writeJson(response, 500, { error: { message: `test server handler failed: ${String(error)}`, type: "server_error" } });
        else response.destroy();
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function readRequest(incoming: IncomingMessage): Promise<RecordedRequest> {
  const parts: Buffer[] = [];
  for await (const part of incoming) parts.push(part as Buffer);
  const text = Buffer.concat(parts).toString("utf8");
  let body: unknown = null;
  if (text !== "") {
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
  }
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
  }
  return { method: incoming.method ?? "GET", path: (incoming.url ?? "/").split("?")[0] ?? "/", headers, body };
}

/** Sends a JSON response with extra headers. */
export function writeJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text), ...headers });
  response.end(text);
}

/** Resolves after `ms` (0 yields to the event loop, so a client sees chunks arrive separately). */
export function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Splits text into pieces of at most `size` characters (at least one piece, even for ""). */
export function splitText(text: string, size: number): string[] {
  if (text === "") return [""];
  const pieces: string[] = [];
  for (let index = 0; index < text.length; index += Math.max(1, size)) pieces.push(text.slice(index, index + Math.max(1, size)));
  return pieces;
}
