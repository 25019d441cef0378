import { afterEach, describe, expect, it } from "vitest";
import { startScriptedEndpointServer, type DisconnectReply, type HangReply, type ScriptedEndpointServer } from "./scripted-endpoint-server";
import { writeJson } from "./scripted-http-server";
import { writeEventStream } from "./server-sent-events";

type Reply = { type: "json"; value: number } | { type: "stream"; disconnectAfter?: number } | HangReply | DisconnectReply;

let server: ScriptedEndpointServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(script: Reply[]): Promise<ScriptedEndpointServer> {
  server = await startScriptedEndpointServer<Reply>({
    path: "/v1/echo",
    script,
    modelList: { models: ["m"] },
    errorBody: (kind, message) => ({ kind, message }),
    answer: async (reply, request, index, response) => {
      if (reply.type === "json") writeJson(response, 200, { value: reply.value, index, path: request.path });
      else await writeEventStream(response, [{ data: { n: 1 } }, { data: "two", event: "named" }], { disconnectAfter: reply.disconnectAfter, finalData: "[END]" });
    },
  });
  return server;
}

function post(running: ScriptedEndpointServer, path = "/v1/echo"): Promise<Response> {
  return fetch(`${running.origin}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
}

describe("startScriptedEndpointServer", () => {
  it("consumes the script only on the scripted route and counts those requests alone", async () => {
    const running = await start([{ type: "json", value: 7 }, { type: "json", value: 8 }]);
    expect(await (await fetch(`${running.origin}/v1/models`)).json()).toEqual({ models: ["m"] });
    const missing = await post(running, "/v1/other");
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ kind: "not_found", message: "no route for POST /v1/other" });
    expect(await (await post(running)).json()).toEqual({ value: 7, index: 0, path: "/v1/echo" });
    expect(await (await post(running)).json()).toEqual({ value: 8, index: 1, path: "/v1/echo" });
    const exhausted = await post(running);
    expect(exhausted.status).toBe(500);
    expect(await exhausted.json()).toEqual({ kind: "exhausted", message: "test script exhausted: request #3 has no scripted reply (script length 2)" });
    expect(running.requests).toHaveLength(5);
    expect(running.endpointRequests()).toHaveLength(3);
  });

  it("writes events with names and the final data line, or breaks the stream off before it", async () => {
    const running = await start([{ type: "stream" }, { type: "stream", disconnectAfter: 1 }, { type: "disconnect" }]);
    const whole = await post(running);
    expect(whole.headers.get("content-type")).toBe("text/event-stream");
    expect(await whole.text()).toBe('data: {"n":1}\n\nevent: named\ndata: two\n\ndata: [END]\n\n');
    const broken = await post(running);
    await expect(broken.text()).rejects.toThrow();
    await expect(post(running)).rejects.toThrow();
  });
});
