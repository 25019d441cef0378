import type { ServerResponse } from "node:http";
import { startHttpTestServer, writeJson, type RecordedRequest } from "./scripted-http-server";

/** A test script: replies consumed in order, or a function choosing the reply for the n-th (0-based) request. */
export type Script<Reply> = readonly Reply[] | ((request: RecordedRequest, index: number) => Reply | undefined);

/** Picks the reply for the `index`-th scripted request, or undefined when the script has run out. */
function replyFor<Reply>(script: Script<Reply>, request: RecordedRequest, index: number): Reply | undefined {
  return typeof script === "function" ? script(request, index) : script[index];
}

/** A scripted reply that never answers (until the client aborts or the server closes). */
export interface HangReply {
  type: "hang";
}

/** A scripted reply that destroys the connection without answering (a connection error for the client). */
export interface DisconnectReply {
  type: "disconnect";
}

/** What a fake model API server needs to answer its one scripted route. */
export interface ScriptedEndpointOptions<Reply extends { type: string }> {
  /** The scripted `POST` route, e.g. "/v1/messages". */
  path: string;
  script: Script<Reply>;
  /** The JSON body of `GET /v1/models`. */
  modelList: unknown;
  /** The API's error body for `kind` (e.g. 404 for an unknown route, 500 for an exhausted script). */
  errorBody(kind: "not_found" | "exhausted", message: string): unknown;
  /** Answers one scripted reply other than a hang or a disconnect; `index` counts scripted requests from 0. */
  answer(reply: Exclude<Reply, HangReply | DisconnectReply>, request: RecordedRequest, index: number, response: ServerResponse): Promise<void>;
}

/** A running fake model API server. */
export interface ScriptedEndpointServer {
  /** `http://127.0.0.1:<port>` without a trailing slash. */
  origin: string;
  /** Every request received, in order. */
  requests: RecordedRequest[];
  /** Only the `POST` requests to the scripted route, in order. */
  endpointRequests(): RecordedRequest[];
  close(): Promise<void>;
}

/**
 * Starts a server that answers `GET /v1/models` with the model list, each `POST` to `path` with the next scripted
 * reply (hangs and disconnects handled here), and everything else with a 404 error body.
 */
export async function startScriptedEndpointServer<Reply extends { type: string }>(options: ScriptedEndpointOptions<Reply>): Promise<ScriptedEndpointServer> {
  let endpointCount = 0;
  const isEndpoint = (request: RecordedRequest): boolean => request.method === "POST" && request.path === options.path;
  const server = await startHttpTestServer(async (request, response) => {
    if (request.method === "GET" && request.path === "/v1/models") {
      writeJson(response, 200, options.modelList);
      return;
    }
    if (!isEndpoint(request)) {
      writeJson(response, 404, options.errorBody("not_found", `no route for ${request.method} ${request.path}`));
      return;
    }
    const index = endpointCount;
    endpointCount += 1;
    const reply = replyFor(options.script, request, index);
    if (reply === undefined) {
      const length = typeof options.script === "function" ? "function" : String(options.script.length);
      writeJson(response, 500, options.errorBody("exhausted", `test script exhausted: request #${index + 1} has no scripted reply (script length ${length})`));
      return;
    }
    if (reply.type === "hang") return;
    if (reply.type === "disconnect") {
      response.socket?.destroy();
      return;
    }
    await options.answer(reply as Exclude<Reply, HangReply | DisconnectReply>, request, index, response);
  });
  return {
    origin: server.origin,
    requests: server.requests,
    endpointRequests: () => server.requests.filter(isEndpoint),
    close: () => server.close(),
  };
}
