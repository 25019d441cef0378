import { describe, expect, it } from "vitest";
import { isRathError } from "../errors";
import { extra } from "../session/lineage";
import { makeChunk } from "../session/chunk";
import { Session } from "../session/session";
import { createScriptedProvider } from "../testing/scripted-provider";
import { Compressor } from "./compressor";
import { recordingContext } from "./test-helpers";

const long = Session.create("user", "plan a trip to Lisbon").append(
  makeChunk("assistant", { content: "Sure: flights, hotel, museums.", tool_calls: null }),
  makeChunk("user", { content: "budget is 800 EUR" }),
);

describe("Compressor", () => {
  it("summarises into one user chunk with compression lineage and a reference to the source", async () => {
    const provider = createScriptedProvider({ steps: [{ content: "  Trip to Lisbon, budget 800 EUR.  ", usage: { prompt_tokens: 30, completion_tokens: 8, total_tokens: 38 } }] });
    const compressor = new Compressor({ name: "squash", provider });
    const context = recordingContext();
    const out = await compressor.forward(long, context);

    expect(provider.requests[0]?.tools).toBeUndefined();
    expect(provider.requests[0]?.messages).toHaveLength(4);
    expect(provider.requests[0]?.messages[3]?.content).toMatch(/^Compress the conversation above\./);

    expect(out.chunks.toArray()).toHaveLength(1);
    const [summary] = out.chunks.toArray();
    expect(summary?.kind).toBe("user");
    expect(summary?.payload).toEqual({ content: "Trip to Lisbon, budget 800 EUR." });
    expect(summary?.meta.source_session_id).toBe(long.id);
    expect(summary?.meta.producer).toBe("squash");
    expect(out.lineage.lineage_kind).toBe("op_session_compress");
    expect(out.lineage.lineage_operator).toBe("run_session_compress");
    expect(out.lineage.parent_session_ids).toEqual([long.id, compressor.id]);
    expect(extra(out.lineage, "compression.lossy")).toBe(true);
    expect(extra(out.lineage, "compression.rows_out")).toBe(1);
    expect(extra(out.lineage, "compression.rows_in")).toBe(3);
    expect(extra(out.lineage, "compression.source_session_id")).toBe(long.id);
    expect(out.usage?.total_tokens).toBe(38);
    expect(context.events).toContainEqual({ type: "session.compressed", session_id: out.id, source_session_id: long.id, rows_out: 1 });
    expect(context.events.filter((event) => event.type === "session.created").map((event) => event.session_id)).toEqual([compressor.id, out.id]);
  });

  it.each([
    [{ content: "" }, /empty content/],
    [{ content: "cut", finishReason: "length" as const }, /output-token limit/],
    [{ toolCalls: [{ name: "x", arguments: {} }] }, /tool calls/],
  ])("refuses a bad summary %#", async (step, message) => {
    const compressor = new Compressor({ provider: createScriptedProvider({ steps: [step] }) });
    await expect(compressor.forward(long)).rejects.toSatisfy((error) => isRathError(error, "provider_error") && message.test(error.message));
  });
});
