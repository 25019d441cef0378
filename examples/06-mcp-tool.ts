/**
 * 06 · An MCP tool: tools borrowed from an MCP server appear as ordinary tools with the server's input
 * schema. Here the reference test server `@modelcontextprotocol/server-everything` runs over stdio from
 * node_modules. A run keeps one client connection per server (in its context), however many calls it makes.
 *
 *   npx tsx examples/06-mcp-tool.ts
 */
import { createRequire } from "node:module";
import { Agent, closeMcpPoolFor, defaultContext, loadMcpToolsForRun, mcpPoolFor, Session, type McpServerConfig, type ScriptedStep } from "../runtime";
import { describeModel, exampleModel } from "./shared/provider";
import { printSession } from "./shared/print";

const require = createRequire(import.meta.url);
const everything: McpServerConfig = {
  name: "everything",
  transport: "stdio",
  command: process.execPath,
  args: [require.resolve("@modelcontextprotocol/server-everything/dist/index.js"), "stdio"],
};

const script: ScriptedStep[] = [
  { toolCalls: [{ name: "echo", arguments: { message: "hello from Rath" } }, { name: "get-sum", arguments: { a: 2, b: 40 } }] },
  { toolCalls: [{ name: "get-sum", arguments: { a: 42, b: 58 } }] },
  { content: "The server echoed my greeting; 2 + 40 = 42 and 42 + 58 = 100." },
];
const model = exampleModel(script);
console.log(describeModel(model));

const context = defaultContext();
try {
  const tools = await loadMcpToolsForRun(everything, context, { include: ["echo", "get-sum"] });
  for (const tool of tools) console.log(`mcp tool ${tool.name}: ${JSON.stringify(tool.jsonSchema)}`);

  const agent = new Agent({
    name: "mcp-user",
    instructions: "Echo 'hello from Rath', add 2 and 40, then add 58 to the result, using the tools.",
    provider: model.provider,
    tools,
  });
  const output = await agent.forward(Session.create("user", "Try the MCP tools."), context);
  printSession("output", output);

  const calls = output.chunks.toArray().filter((chunk) => chunk.kind === "tool_result");
  const stats = mcpPoolFor(context).stats();
  const last = calls.at(-1)?.payload.content ?? "";
  console.log(`ok: mcp_calls=${calls.length} connections_opened=${stats.connectionsOpened} last_result=${last}`);
} finally {
  await closeMcpPoolFor(context);
}
