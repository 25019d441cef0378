import { describe, expect, it } from "vitest";
import * as rath from "./index";

describe("runtime barrel", () => {
  it("exports the public surface of every folder", () => {
    for (const name of [
      "Session",
      "RathError",
      "EventBus",
      "ChunkList",
      "validateAcyclic",
      "Agent",
      "Workflow",
      "parallel",
      "loop",
      "Selector",
      "Compressor",
      "LocalMemoryStore",
      "createScriptedProvider",
      "createDemoProvider",
      "defineTool",
      "ToolRegistry",
      "dispatchToolCalls",
      "bindSandbox",
      "createOpenAIProvider",
      "createAnthropicProvider",
      "loadMcpTools",
      "writeBundle",
    ]) {
      expect(rath, name).toHaveProperty(name);
    }
  });

  it("runs a two-step workflow through the barrel alone", async () => {
    const provider = rath.createScriptedProvider({ steps: [{ content: "draft" }, { content: "final" }] });
    const workflow = new rath.Workflow("pipeline", [
      new rath.Agent({ name: "writer", provider }),
      new rath.Agent({ name: "editor", provider }),
    ]);
    const out = await workflow.forward(rath.Session.create("user", "write"));
    expect(out.chunks.toArray().map(rath.chunkText)).toEqual(["write", "draft", "final"]);
  });
});
