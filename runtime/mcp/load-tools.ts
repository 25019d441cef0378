import type { RunContext } from "../context";
import { RathError } from "../errors";
import { ToolFailure, type Tool, type ToolContext } from "../tools/types";
import type { McpToolDescription } from "./connection";
import type { McpConnectionPool } from "./connection-pool";
import { parametersFromJsonSchema, type McpToolArguments } from "./json-schema-parameters";
import { mcpPoolFor } from "./run-pool";
import { McpServerConfig } from "./server-config";
import { joinedText, toMcpToolResult, type McpToolResult } from "./tool-result";

/** How `loadMcpTools` turns a server's tools into runtime tools. */
export interface LoadMcpToolsOptions {
  /** Name tools `server__tool` instead of `tool` (use it when two servers, or a server and a built-in, share names). */
  readonly prefix?: boolean;
  /** Only these tools (by the server's names); default all. An unknown name is an error. */
  readonly include?: readonly string[];
  /**
   * Let calls of one round run concurrently with each other (default false: calls to one server run in order,
   * under the resource key `mcp:<server>`).
   */
  readonly parallelSafe?: boolean;
  readonly signal?: AbortSignal;
}

/** An MCP server's tool as a runtime tool; `server` and `remoteName` say where calls go. */
export interface McpTool extends Tool<McpToolArguments, McpToolResult> {
  readonly server: string;
  readonly remoteName: string;
}

/** Separates server and tool in a prefixed name. */
export const MCP_TOOL_NAME_SEPARATOR = "__";
/** The longest tool name model APIs accept. */
const MAXIMUM_TOOL_NAME_LENGTH = 64;

/**
 * Lists the server's tools (connecting through `pool`, once per server) and returns each as a runtime Tool: the model
 * sees the server's input schema, arguments are validated against it before the call, and every call goes through
 * the pool's one connection to the server. An `isError` result becomes a ToolFailure `tool_execution_exception`.
 */
export async function loadMcpTools(
  config: McpServerConfig,
  pool: McpConnectionPool,
  options: LoadMcpToolsOptions = {},
): Promise<McpTool[]> {
  const server = parseConfig(config);
  const connection = await pool.get(server);
  const listed = await connection.listTools(options.signal);
  const chosen = chooseTools(server.name, listed, options.include);
  const tools = chosen.map((description) => toRuntimeTool(server, pool, description, options));
  assertUniqueNames(server.name, tools);
  return tools;
}

/** `loadMcpTools` with the run's own pool (`mcpPoolFor(context)`), so the run's owner closes it with the run. */
export function loadMcpToolsForRun(
  config: McpServerConfig,
  context: RunContext,
  options: LoadMcpToolsOptions = {},
): Promise<McpTool[]> {
  return loadMcpTools(config, mcpPoolFor(context), { ...options, signal: options.signal ?? context.signal });
}

function toRuntimeTool(
  server: McpServerConfig,
  pool: McpConnectionPool,
  description: McpToolDescription,
  options: LoadMcpToolsOptions,
): McpTool {
  const remoteName = description.name;
  // The model sees the server's schema as given, less `$schema` (as for tools made with defineTool).
  const { $schema: _dialect, ...jsonSchema } = description.inputSchema as Record<string, unknown>;
  const annotations = description.annotations;
  const parallelSafe = options.parallelSafe ?? false;
  return {
    name: localName(server.name, remoteName, options.prefix ?? false),
    description: description.description ?? description.title ?? `Tool '${remoteName}' of MCP server '${server.name}'.`,
    parameters: parametersFromJsonSchema(jsonSchema),
    jsonSchema,
    parallelSafe,
    idempotent: annotations?.idempotentHint === true || annotations?.readOnlyHint === true,
    server: server.name,
    remoteName,
    resourceKey: () => (parallelSafe ? null : `mcp:${server.name}`),
    async execute(args: McpToolArguments, context: ToolContext): Promise<McpToolResult> {
      const connection = await pool.get(server);
      const result = await connection.callTool(remoteName, args, context.signal);
      if (result.isError === true) {
        const text = joinedText(result).trim();
        throw new ToolFailure(
          "tool_execution_exception",
          text.length > 0 ? text : `MCP tool '${remoteName}' on server '${server.name}' reported an error without a message`,
          { server: server.name, tool: remoteName },
        );
      }
      return toMcpToolResult(result);
    },
  };
}

function parseConfig(config: McpServerConfig): McpServerConfig {
  const parsed = McpServerConfig.safeParse(config);
  if (parsed.success) return parsed.data;
  // Issue paths and messages only: zod messages name expected and received types, never the (possibly secret) values.
  const problems = parsed.error.issues.map((issue) => `${issue.path.join(".") || "(root)"}: ${issue.message}`);
  throw new RathError("invalid_config", `invalid MCP server configuration: ${problems.join("; ")}`);
}

function chooseTools(
  server: string,
  listed: readonly McpToolDescription[],
  include: readonly string[] | undefined,
): McpToolDescription[] {
  if (include === undefined) return [...listed];
  const available = new Set(listed.map((tool) => tool.name));
  const missing = include.filter((name) => !available.has(name));
  if (missing.length > 0) {
    throw new RathError(
      "invalid_config",
      `expected MCP server '${server}' to offer ${missing.map((name) => `'${name}'`).join(", ")}; ` +
        `it offers: ${[...available].join(", ") || "no tools"}`,
    );
  }
  const wanted = new Set(include);
  return listed.filter((tool) => wanted.has(tool.name));
}

/** A model-safe name: characters outside `[A-Za-z0-9_-]` become `_`, cut to 64 characters. */
function localName(server: string, remoteName: string, prefix: boolean): string {
  const base = prefix ? `${server}${MCP_TOOL_NAME_SEPARATOR}${remoteName}` : remoteName;
  return base.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, MAXIMUM_TOOL_NAME_LENGTH);
}

function assertUniqueNames(server: string, tools: readonly McpTool[]): void {
  const seen = new Map<string, string>();
  for (const tool of tools) {
    const previous = seen.get(tool.name);
    if (previous !== undefined) {
      throw new RathError(
        "duplicate_tool",
        `expected distinct tool names from MCP server '${server}'; '${previous}' and '${tool.remoteName}' both become '${tool.name}'`,
      );
    }
    seen.set(tool.name, tool.remoteName);
  }
}
