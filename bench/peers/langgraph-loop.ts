import { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage } from "@langchain/core/messages";
import type { ChatResult } from "@langchain/core/outputs";
import { tool } from "@langchain/core/tools";
import { END, MessagesAnnotation, START, StateGraph } from "@langchain/langgraph";
import { ToolNode, toolsCondition } from "@langchain/langgraph/prebuilt";
import { z } from "zod";

/** A chat model that answers instantly: one `constant` tool call per turn for `rounds` turns, then "done", then starts over. */
class InstantToolCallingChatModel extends BaseChatModel {
  private turns = 0;

  constructor(private readonly rounds: number) {
    super({});
  }

  _llmType(): string {
    return "bench-instant";
  }

  async _generate(): Promise<ChatResult> {
    this.turns += 1;
    const callsTool = this.turns <= this.rounds;
    const message = callsTool
      ? new AIMessage({ content: "", tool_calls: [{ id: `call_${this.turns}`, name: "constant", args: {}, type: "tool_call" }] })
      : new AIMessage({ content: "done" });
    if (!callsTool) this.turns = 0;
    return { generations: [{ text: typeof message.content === "string" ? message.content : "", message }] };
  }
}

/**
 * Microseconds per tool round of a LangGraph ReAct graph (agent node -> ToolNode -> agent, `toolsCondition`
 * routing): `rounds` turns of one trivial tool call, then a final answer; `runs` runs of one compiled graph.
 */
export async function measureLangGraphLoop(rounds: number, runs = 1): Promise<number> {
  const model = new InstantToolCallingChatModel(rounds);
  const constant = tool(async () => "42", { name: "constant", description: "Returns 42.", schema: z.object({}) });
  const graph = new StateGraph(MessagesAnnotation)
    .addNode("agent", async (state) => ({ messages: [await model.invoke(state.messages)] }))
    .addNode("tools", new ToolNode([constant]))
    .addEdge(START, "agent")
    .addConditionalEdges("agent", toolsCondition, ["tools", END])
    .addEdge("tools", "agent")
    .compile();
  const start = performance.now();
  for (let index = 0; index < runs; index++) {
    const output = await graph.invoke({ messages: [{ role: "user", content: "go" }] }, { recursionLimit: 2 * rounds + 8 });
    const last = output.messages.at(-1);
    if (last?.content !== "done") throw new Error(`expected the final message 'done'; found ${JSON.stringify(last?.content)}`);
  }
  return ((performance.now() - start) * 1000) / (rounds * runs);
}
