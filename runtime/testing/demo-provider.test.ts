import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Agent } from "../agent/agent";
import { Compressor } from "../agent/compressor";
import { Selector } from "../agent/selector";
import { Workflow } from "../agent/workflow";
import type { ChunkOf } from "../session/chunk";
import { Session } from "../session/session";
import { defineTool } from "../tools/define-tool";
import { createDemoProvider, exampleFromSchema } from "./demo-provider";

describe("exampleFromSchema", () => {
  it("fills required properties with sensible values", () => {
    const schema = {
      type: "object",
      properties: {
        path: { type: "string" },
        cmd: { type: "string" },
        language: { type: "string", enum: ["python", "bash"] },
        timeout: { type: "integer", minimum: 5 },
        flags: { type: "array", items: { type: "boolean" } },
        query: { type: "string" },
        optional: { type: "string" },
      },
      required: ["path", "cmd", "language", "timeout", "flags", "query"],
    };
    expect(exampleFromSchema(schema, "tool", "find cats")).toEqual({ path: ".", cmd: "echo hello", language: "python", timeout: 5, flags: [true], query: "find cats" });
  });
});

describe("createDemoProvider", () => {
  const search = defineTool({
    name: "search",
    description: "Search notes.",
    parameters: z.object({ query: z.string() }),
    execute: ({ query }) => ({ results: [`note about ${query}`] }),
  });

  it("calls the first tool once, then quotes the user; labelled as scripted", async () => {
    const provider = createDemoProvider();
    expect(provider.kind).toBe("scripted");
    expect(provider.defaultModel).toBe("scripted-demo");
    const out = await new Agent({ name: "demo", provider, tools: [search] }).forward(Session.create("user", "tea"));
    const chunks = out.chunks.toArray();
    expect(chunks.map((chunk) => chunk.kind)).toEqual(["user", "assistant", "tool_result", "assistant"]);
    expect((chunks[1] as ChunkOf<"assistant">).payload.tool_calls?.[0]?.function).toEqual({ name: "search", arguments: "{\"query\":\"tea\"}" });
    const answer = (chunks[3] as ChunkOf<"assistant">).payload.content ?? "";
    expect(answer).toContain('You said: "tea"');
    expect(answer).toContain("note about tea");
    expect(out.usage?.total_tokens).toBeGreaterThan(0);
  });

  it("answers selector prompts with 0 and compressor prompts with a summary", async () => {
    const provider = createDemoProvider();
    const selector = new Selector({ name: "s", provider, candidates: [{ name: "only", description: "the only one", workflow: Workflow.empty() }] });
    expect((await selector.decide(Session.create("user", "hi"))).chosen).toBe(0);
    const compressed = await new Compressor({ provider }).forward(Session.create("user", "remember the milk"));
    expect(compressed.chunks.at(0)?.payload).toEqual({ content: "Summary of 1 message(s). user: remember the milk" });
  });
});
