import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Agent } from "../agent/agent";
import { Compressor } from "../agent/compressor";
import { Selector } from "../agent/selector";
import { Workflow } from "../agent/workflow";
import { makeChunk, type ChunkOf } from "../session/chunk";
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

  it("answers two branches of a fork differently when their agents have the same instructions (deterministic)", async () => {
    const provider = createDemoProvider();
    const question = Session.create("user", "Plan the launch.");
    const answerOf = async (name: string) => {
      const out = await new Agent({ name, provider, instructions: "" }).forward(question.fork());
      return (out.chunks.toArray().at(-1) as ChunkOf<"assistant">).payload.content ?? "";
    };
    const [left, right, again] = [await answerOf("left_branch"), await answerOf("right_branch"), await answerOf("left_branch")];
    expect(left).toBe('(scripted demo) You said: "Plan the launch.". left_branch looks at the next step: the smallest change that moves it forward.');
    expect(right).toMatch(/^\(scripted demo\) You said: "Plan the launch\."\. right_branch looks at /);
    expect(right).not.toBe(left);
    expect(again).toBe(left);
  });

  it("routes by reading the conversation: continue while the latest answer is unfinished, finish once it says DONE", async () => {
    const provider = createDemoProvider();
    const candidates = [
      { name: "editor", description: "Publish: the reviewer said DONE; the editor polishes the final draft.", workflow: Workflow.empty() },
      { name: "writer", description: "Revise: the reviewer asked for changes; send the draft back to the writer.", workflow: Workflow.empty() },
    ];
    const selector = new Selector({ name: "router", provider, candidates });
    const unfinished = Session.create("user", "Write a haiku.").append(makeChunk("assistant", { content: "Review 1: not finished yet — tighten it.", tool_calls: null }));
    const finished = Session.create("user", "Write a haiku.").append(makeChunk("assistant", { content: "Review 3: DONE. It reads well.", tool_calls: null }));
    const first = await selector.decide(unfinished);
    expect(first.chosen).toBe(1);
    expect(first.reply).toMatch(/^1 — the work is not finished yet/);
    expect((await selector.decide(finished)).chosen).toBe(0);
    const onlyContinue = new Selector({ name: "s", provider, candidates: [candidates[1] as (typeof candidates)[number]] });
    expect((await onlyContinue.decide(finished)).chosen).toBe(-1);
  });

  it("summarises a conversation into its key sentences, saying how many messages it replaces", async () => {
    const provider = createDemoProvider();
    const long = Session.create("user", "We met about the launch. The weather was nice. We decided to ship on May 4. Ana will write the notes.");
    const compressed = await new Compressor({ provider }).forward(long);
    const summary = (compressed.chunks.at(0)?.payload as { content: string }).content;
    expect(summary).toBe("Summary of 1 message(s): We decided to ship on May 4. Ana will write the notes.");
  });
});
