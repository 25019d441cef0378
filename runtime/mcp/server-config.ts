import { z } from "zod";

/** A server name becomes part of tool names (`server__tool`), so it keeps to the characters model APIs accept. */
export const McpServerName = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,48}$/, "an MCP server name is 1-48 letters, digits, '_' or '-'");
export type McpServerName = z.infer<typeof McpServerName>;

/** An MCP server started as a child process that speaks JSON-RPC over its stdin and stdout. */
export const McpStdioServerConfig = z.object({
  name: McpServerName,
  transport: z.literal("stdio"),
  command: z.string().min(1),
  args: z.array(z.string()).optional(),
  /** Added to a minimal inherited environment (PATH, HOME, ...); values may be secrets and are never logged. */
  env: z.record(z.string(), z.string()).optional(),
  cwd: z.string().min(1).optional(),
});
export type McpStdioServerConfig = z.infer<typeof McpStdioServerConfig>;

/** An MCP server reached over streamable HTTP; header values may be secrets and are never logged. */
export const McpHttpServerConfig = z.object({
  name: McpServerName,
  transport: z.literal("http"),
  url: z.url({ protocol: /^https?$/ }),
  headers: z.record(z.string(), z.string()).optional(),
});
export type McpHttpServerConfig = z.infer<typeof McpHttpServerConfig>;

/** How to reach one MCP server: a stdio child process or a streamable HTTP endpoint. */
export const McpServerConfig = z.discriminatedUnion("transport", [McpStdioServerConfig, McpHttpServerConfig]);
export type McpServerConfig = z.infer<typeof McpServerConfig>;

/**
 * A description of a server that is safe to show in errors and logs: its name and command, or its URL without
 * credentials, query or fragment. Never args, env values or headers.
 */
export function describeMcpServer(config: McpServerConfig): string {
  if (config.transport === "stdio") {
    return `MCP server '${config.name}' (stdio: ${config.command})`;
  }
  return `MCP server '${config.name}' (http: ${safeUrl(config.url)})`;
}

/**
 * Every configured value that may be a secret, for redaction: env values, header values (and their words, so the
 * token of "Bearer <token>" is caught), the URL's credentials and query values, and values of secret-looking args.
 */
export function mcpSecretValues(config: McpServerConfig): string[] {
  const candidates: string[] = [];
  if (config.transport === "stdio") {
    candidates.push(...Object.values(config.env ?? {}));
    const args = config.args ?? [];
    args.forEach((argument, index) => {
      if (!SECRET_ARGUMENT.test(argument)) return;
      const equals = argument.indexOf("=");
      if (equals >= 0) candidates.push(argument.slice(equals + 1));
      else if (argument.startsWith("-") && args[index + 1] !== undefined) candidates.push(args[index + 1] ?? "");
    });
  } else {
    for (const value of Object.values(config.headers ?? {})) candidates.push(value, ...value.split(/\s+/));
    const url = parseUrl(config.url);
    if (url !== null) candidates.push(url.username, url.password, ...url.searchParams.values());
  }
  return [...new Set(candidates.filter((value) => value.length >= MINIMUM_SECRET_LENGTH))];
}

/** A stable fingerprint of everything that identifies a connection, so a pool can tell two configs apart. */
export function mcpConfigFingerprint(config: McpServerConfig): string {
  return JSON.stringify(sortKeys(config));
}

function safeUrl(raw: string): string {
  const url = parseUrl(raw);
  return url === null ? "<invalid url>" : `${url.protocol}//${url.host}${url.pathname}`;
}

function parseUrl(raw: string): URL | null {
  try {
    return new URL(raw);
  } catch {
    return null;
  }
}

/** Flags such as `--token=abc` or `--api-key abc` carry a secret value. */
const SECRET_ARGUMENT = /(token|secret|password|passwd|key|auth|credential)/i;

/** Shorter values (e.g. "1", "on") are not redacted: they would garble every message and are not credentials. */
const MINIMUM_SECRET_LENGTH = 4;

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .sort(([left], [right]) => left.localeCompare(right))
        .map(([key, entry]) => [key, sortKeys(entry)]),
    );
  }
  return value;
}
