import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult, Tool as McpToolDescription } from "@modelcontextprotocol/sdk/types.js";
import { RathError } from "../errors";
import { errorMessage, redactSecrets } from "./redact";
import { describeMcpServer, mcpSecretValues, type McpServerConfig } from "./server-config";

export type { McpToolDescription };

/** Timeouts for one connection; the defaults suit local servers. */
export interface McpConnectionOptions {
  /** How long the initialize handshake may take. Default 30 s. */
  readonly connectTimeoutMs?: number;
  /** How long one request (list or call) may take. Default 60 s. */
  readonly requestTimeoutMs?: number;
}

/** What the runtime calls itself in the MCP handshake. */
const CLIENT_INFO = { name: "rath-studio", version: "0.1.0" } as const;
const DEFAULT_CONNECT_TIMEOUT_MS = 30_000;
const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;
/** How much of a stdio server's stderr is kept to explain a failure. */
const STDERR_TAIL_CHARS = 2_000;

type ClientTransport = StdioClientTransport | StreamableHTTPClientTransport;

/**
 * One live MCP client session with one server (a child process for stdio, an HTTP session otherwise).
 * Errors it throws are RathError `mcp_error` that name the server and never carry its env values or headers.
 */
export class McpConnection {
  private closedFlag = false;
  private closing: Promise<void> | null = null;
  private readonly closeListeners = new Set<() => void>();

  private constructor(
    readonly config: McpServerConfig,
    private readonly client: Client,
    private readonly transport: ClientTransport,
    private readonly stderr: StderrTail,
    private readonly options: McpConnectionOptions,
    /** The child's process id for stdio servers, null for HTTP. */
    readonly pid: number | null,
  ) {
    client.onclose = () => {
      this.closedFlag = true;
      for (const listener of this.closeListeners) listener();
    };
  }

  /** Starts the transport and performs the MCP initialize handshake. */
  static async open(config: McpServerConfig, options: McpConnectionOptions = {}): Promise<McpConnection> {
    const stderr = new StderrTail();
    const transport = createTransport(config, stderr);
    const client = new Client(CLIENT_INFO, { capabilities: {} });
    try {
      await client.connect(transport, { timeout: options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS });
    } catch (error) {
      await transport.close().catch(() => undefined);
      throw mcpError(config, "could not connect to", error, stderr.text());
    }
    const pid = transport instanceof StdioClientTransport ? transport.pid : null;
    return new McpConnection(config, client, transport, stderr, options, pid);
  }

  /** True once the connection has ended (closed by us, or the server went away). */
  get closed(): boolean {
    return this.closedFlag;
  }

  /** Registers a listener for the end of the connection; returns its remover. */
  onClose(listener: () => void): () => void {
    this.closeListeners.add(listener);
    return () => this.closeListeners.delete(listener);
  }

  /** Every tool the server offers, following pagination cursors. */
  async listTools(signal?: AbortSignal): Promise<McpToolDescription[]> {
    const tools: McpToolDescription[] = [];
    let cursor: string | undefined;
    try {
      do {
        const page = await this.client.listTools(cursor === undefined ? {} : { cursor }, this.requestOptions(signal));
        tools.push(...page.tools);
        cursor = page.nextCursor;
      } while (cursor !== undefined);
    } catch (error) {
      throw this.failure("could not list the tools of", error, signal);
    }
    return tools;
  }

  /** Calls one tool; a result with `isError` is returned as is (the caller decides what it means). */
  async callTool(name: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<CallToolResult> {
    try {
      const result = await this.client.callTool({ name, arguments: args }, undefined, this.requestOptions(signal));
      if (!Array.isArray(result.content)) {
        return { content: [{ type: "text", text: JSON.stringify(result.toolResult ?? null) }] };
      }
      return result as CallToolResult;
    } catch (error) {
      throw this.failure(`could not call tool '${name}' on`, error, signal);
    }
  }

  /** Ends the session: an HTTP session is terminated, a stdio child is stopped (stdin closed, then SIGTERM). Idempotent. */
  close(): Promise<void> {
    this.closing ??= this.end();
    return this.closing;
  }

  private async end(): Promise<void> {
    if (this.transport instanceof StreamableHTTPClientTransport && !this.closedFlag) {
      await this.transport.terminateSession().catch(() => undefined);
    }
    await this.client.close().catch(() => undefined);
    this.closedFlag = true;
  }

  private requestOptions(signal: AbortSignal | undefined) {
    return { timeout: this.options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS, ...(signal ? { signal } : {}) };
  }

  private failure(action: string, error: unknown, signal: AbortSignal | undefined): RathError {
    if (signal?.aborted) {
      return new RathError("aborted", `the call to ${describeMcpServer(this.config)} was aborted`, {
        details: { server: this.config.name },
      });
    }
    // The server's stderr explains a crash; for a live server it is only start-up noise.
    return mcpError(this.config, action, error, this.closedFlag ? this.stderr.text() : "");
  }
}

function createTransport(config: McpServerConfig, stderr: StderrTail): ClientTransport {
  if (config.transport === "http") {
    return new StreamableHTTPClientTransport(new URL(config.url), {
      requestInit: { headers: { ...(config.headers ?? {}) } },
    });
  }
  const transport = new StdioClientTransport({
    command: config.command,
    args: config.args ?? [],
    ...(config.env ? { env: config.env } : {}),
    ...(config.cwd ? { cwd: config.cwd } : {}),
    stderr: "pipe",
  });
  transport.stderr?.on("data", (chunk: Buffer | string) => stderr.append(chunk.toString()));
  return transport;
}

/** A RathError `mcp_error` naming the server, with the cause's message and the stderr tail, secrets redacted. */
function mcpError(config: McpServerConfig, action: string, error: unknown, stderrText: string): RathError {
  const secrets = mcpSecretValues(config);
  const cause = redactSecrets(errorMessage(error), secrets);
  const stderrTail = redactSecrets(stderrText, secrets).trim();
  const message = `${action} ${describeMcpServer(config)}: ${cause}${stderrTail ? `; server stderr: ${stderrTail}` : ""}`;
  return new RathError("mcp_error", message, { details: { server: config.name, transport: config.transport } });
}

/** Keeps the last few thousand characters a stdio server wrote to stderr (and drains the pipe so it never blocks). */
class StderrTail {
  private buffer = "";

  append(text: string): void {
    this.buffer = (this.buffer + text).slice(-STDERR_TAIL_CHARS);
  }

  text(): string {
    return this.buffer;
  }
}
