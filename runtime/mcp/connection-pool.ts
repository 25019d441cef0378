import { RathError } from "../errors";
import { McpConnection, type McpConnectionOptions } from "./connection";
import { mcpConfigFingerprint, type McpServerConfig } from "./server-config";

/** The state of one server's connection in a pool. */
export type McpConnectionState = "connecting" | "open" | "closed";

/** What a pool knows about one server, for tests and diagnostics. */
export interface McpServerStats {
  readonly name: string;
  readonly transport: McpServerConfig["transport"];
  readonly state: McpConnectionState;
  /** How many connections this pool has opened to the server (a stdio server is spawned once per connection). */
  readonly connectionsOpened: number;
  /** The current stdio child's process id, or null (HTTP, or not connected). */
  readonly pid: number | null;
}

/** A snapshot of a pool: one entry per server it has ever connected to. */
export interface McpPoolStats {
  readonly connectionsOpened: number;
  readonly servers: readonly McpServerStats[];
}

interface PoolEntry {
  readonly config: McpServerConfig;
  readonly fingerprint: string;
  readonly pending: Promise<McpConnection>;
  connection: McpConnection | null;
}

/**
 * One client connection per MCP server for the life of a run. `get` connects lazily, once: concurrent callers share
 * the pending connection, later callers the open one. A connection the server ended is replaced on the next `get`;
 * a failed connect is forgotten so a later `get` tries again. `closeAll` ends every connection (stops stdio children)
 * and the pool with them: a pool lives as long as its run, so a later `get` is refused rather than leaking a process.
 */
export class McpConnectionPool {
  private readonly entries = new Map<string, PoolEntry>();
  private readonly opened = new Map<string, { transport: McpServerConfig["transport"]; count: number }>();
  private closed = false;

  constructor(private readonly options: McpConnectionOptions = {}) {}

  /** The open connection to `config`'s server, connecting on first use. */
  get(config: McpServerConfig): Promise<McpConnection> {
    if (this.closed) {
      return Promise.reject(
        new RathError(
          "mcp_error",
          `expected an open MCP connection pool for server '${config.name}'; found it closed (its run has ended)`,
          { details: { server: config.name } },
        ),
      );
    }
    const fingerprint = mcpConfigFingerprint(config);
    const existing = this.entries.get(config.name);
    if (existing !== undefined) {
      if (existing.fingerprint !== fingerprint) {
        return Promise.reject(
          new RathError(
            "invalid_config",
            `expected one configuration per MCP server name in a run; found two different configurations named '${config.name}'`,
            { details: { server: config.name } },
          ),
        );
      }
      if (existing.connection === null || !existing.connection.closed) return existing.pending;
      this.entries.delete(config.name);
    }
    return this.connect(config, fingerprint);
  }

  /** Closes every connection (waiting for pending ones first) and the pool; safe to call twice. */
  async closeAll(): Promise<void> {
    this.closed = true;
    const entries = [...this.entries.values()];
    this.entries.clear();
    await Promise.all(
      entries.map(async (entry) => {
        const connection = await entry.pending.catch(() => null);
        await connection?.close();
      }),
    );
  }

  /** How many connections were opened to which server, and their current state. */
  stats(): McpPoolStats {
    const servers: McpServerStats[] = [...this.opened.entries()].map(([name, { transport, count }]) => {
      const entry = this.entries.get(name);
      const connection = entry?.connection ?? null;
      const state: McpConnectionState =
        entry === undefined ? "closed" : connection === null ? "connecting" : connection.closed ? "closed" : "open";
      return { name, transport, state, connectionsOpened: count, pid: state === "open" ? (connection?.pid ?? null) : null };
    });
    return { connectionsOpened: servers.reduce((sum, server) => sum + server.connectionsOpened, 0), servers };
  }

  private connect(config: McpServerConfig, fingerprint: string): Promise<McpConnection> {
    const previous = this.opened.get(config.name);
    this.opened.set(config.name, { transport: config.transport, count: (previous?.count ?? 0) + 1 });
    const pending = McpConnection.open(config, this.options);
    const entry: PoolEntry = { config, fingerprint, pending, connection: null };
    this.entries.set(config.name, entry);
    pending.then(
      (connection) => {
        entry.connection = connection;
        // closeAll() may have dropped this entry while it connected; it awaits `pending` and closes it too.
      },
      () => {
        if (this.entries.get(config.name) === entry) this.entries.delete(config.name);
      },
    );
    return pending;
  }
}
