import type { RunContext } from "../context";
import { RathError } from "../errors";
import { McpConnectionPool } from "./connection-pool";

/** The key under which a run's MCP connection pool lives in `RunContext.resources`. */
export const MCP_POOL_RESOURCE_KEY = "rath.mcp.connection-pool";

/**
 * The run's MCP connection pool, created on first use and stored in `context.resources`, so every MCP tool of the
 * run shares one connection per server. Whoever owns the run calls `closeMcpPoolFor(context)` when it ends.
 */
export function mcpPoolFor(context: RunContext): McpConnectionPool {
  const resources = context.resources;
  if (resources === undefined) {
    throw new RathError(
      "invalid_argument",
      "expected a RunContext with `resources` to hold the run's MCP connections; found none (use defaultContext())",
    );
  }
  const existing = resources.get(MCP_POOL_RESOURCE_KEY);
  if (existing instanceof McpConnectionPool) return existing;
  if (existing !== undefined) {
    throw new RathError(
      "invalid_argument",
      `expected an McpConnectionPool under resources['${MCP_POOL_RESOURCE_KEY}']; found ${describeValue(existing)}`,
    );
  }
  const pool = new McpConnectionPool();
  resources.set(MCP_POOL_RESOURCE_KEY, pool);
  return pool;
}

/** Closes the run's MCP connections, if it opened any; safe to call when it did not. */
export async function closeMcpPoolFor(context: RunContext): Promise<void> {
  const existing = context.resources?.get(MCP_POOL_RESOURCE_KEY);
  if (existing instanceof McpConnectionPool) await existing.closeAll();
}

function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (typeof value === "object") return value.constructor?.name ?? "an object";
  return typeof value;
}
