import { afterAll, describe, expect, it } from "vitest";
import { defaultContext } from "../context";
import { isRathError } from "../errors";
import { McpConnectionPool } from "./connection-pool";
import { loadMcpTools, loadMcpToolsForRun } from "./load-tools";
import { closeMcpPoolFor, MCP_POOL_RESOURCE_KEY, mcpPoolFor } from "./run-pool";
import { everythingStdioConfig, processIsAlive, toolContextFor, waitForExit } from "./test-servers";

/** One connection (one stdio child) per server per run, shared, reused and closed with the run. */
describe("McpConnectionPool with a real stdio server", () => {
  const pools: McpConnectionPool[] = [];
  const newPool = (): McpConnectionPool => {
    const pool = new McpConnectionPool();
    pools.push(pool);
    return pool;
  };

  afterAll(async () => {
    await Promise.all(pools.map((pool) => pool.closeAll()));
  });

  it("spawns the server once for five calls and kills it on closeAll", async () => {
    const pool = newPool();
    const [echo] = await loadMcpTools(everythingStdioConfig(), pool, { include: ["echo"] });
    if (echo === undefined) throw new Error("echo missing");
    const pid = pool.stats().servers[0]?.pid;
    expect(pid).toBeTypeOf("number");
    const results = [];
    for (let call = 0; call < 5; call += 1) results.push(await echo.execute({ message: `m${call}` }, toolContextFor()));
    expect(results.map((result) => result.text)).toEqual(["Echo: m0", "Echo: m1", "Echo: m2", "Echo: m3", "Echo: m4"]);
    expect(pool.stats()).toEqual({
      connectionsOpened: 1,
      servers: [{ name: "everything", transport: "stdio", state: "open", connectionsOpened: 1, pid }],
    });
    expect(processIsAlive(pid as number)).toBe(true);

    await pool.closeAll();
    expect(await waitForExit(pid as number)).toBe(true);
    expect(pool.stats().servers[0]).toMatchObject({ state: "closed", pid: null, connectionsOpened: 1 });
  });

  it("shares one pending connection among concurrent callers", async () => {
    const pool = newPool();
    const config = everythingStdioConfig();
    const connections = await Promise.all([pool.get(config), pool.get(config), pool.get(config)]);
    expect(new Set(connections).size).toBe(1);
    expect(await pool.get(config)).toBe(connections[0]);
    expect(pool.stats().connectionsOpened).toBe(1);
  });

  it("refuses a second, different configuration under the same server name", async () => {
    const pool = newPool();
    await pool.get(everythingStdioConfig());
    const error = await pool.get({ ...everythingStdioConfig(), cwd: "/" }).catch((caught: unknown) => caught);
    expect(isRathError(error, "invalid_config")).toBe(true);
    expect((error as Error).message).toContain("two different configurations named 'everything'");
  });

  it("reconnects on the next get after the server process dies", async () => {
    const pool = newPool();
    const config = everythingStdioConfig();
    const first = await pool.get(config);
    const firstPid = first.pid as number;
    const ended = new Promise<void>((resolve) => first.onClose(resolve));
    process.kill(firstPid, "SIGKILL");
    await ended;
    const second = await pool.get(config);
    expect(second).not.toBe(first);
    expect(second.pid).not.toBe(firstPid);
    expect(pool.stats().servers[0]).toMatchObject({ connectionsOpened: 2, state: "open", pid: second.pid });
  });

  it("is closed for good after closeAll", async () => {
    const pool = newPool();
    await pool.closeAll();
    const error = await pool.get(everythingStdioConfig()).catch((caught: unknown) => caught);
    expect(isRathError(error, "mcp_error")).toBe(true);
    expect(pool.stats().connectionsOpened).toBe(0);
  });

  it("reports a server that cannot start as mcp_error naming the server, without its secrets", async () => {
    const pool = newPool();
    const secret = "top-secret-env-value";
    const error = await pool
      .get({ name: "broken", transport: "stdio", command: "/nonexistent/mcp-server", args: ["--token", "arg-secret-value"], env: { API_KEY: secret } })
      .catch((caught: unknown) => caught);
    expect(isRathError(error, "mcp_error")).toBe(true);
    const message = (error as Error).message;
    expect(message).toContain("could not connect to MCP server 'broken' (stdio: /nonexistent/mcp-server)");
    expect(message).not.toContain(secret);
    expect(message).not.toContain("arg-secret-value");
    expect(JSON.stringify((error as { details?: unknown }).details)).not.toContain(secret);
    expect(pool.stats().servers[0]).toMatchObject({ name: "broken", state: "closed", connectionsOpened: 1 });
  });

  it("includes the redacted stderr of a server that exits during start-up", async () => {
    const pool = newPool();
    const secret = "leaky-secret-value";
    const error = await pool
      .get({
        name: "crashing",
        transport: "stdio",
        command: process.execPath,
        args: ["-e", "console.error('boot failed with ' + process.env.LEAKY); process.exit(3)"],
        env: { LEAKY: secret },
      })
      .catch((caught: unknown) => caught);
    expect(isRathError(error, "mcp_error")).toBe(true);
    expect((error as Error).message).toContain("boot failed with [redacted]");
    expect((error as Error).message).not.toContain(secret);
  });
});

describe("mcpPoolFor", () => {
  it("keeps one pool per run context, under the well-known key", async () => {
    const context = defaultContext();
    const pool = mcpPoolFor(context);
    expect(mcpPoolFor(context)).toBe(pool);
    expect(context.resources?.get(MCP_POOL_RESOURCE_KEY)).toBe(pool);
    expect(mcpPoolFor(defaultContext())).not.toBe(pool);
    await closeMcpPoolFor(context);
    await expect(pool.get(everythingStdioConfig())).rejects.toThrow(/closed/);
  });

  it("refuses a context without resources and a foreign value under the key", () => {
    expect(() => mcpPoolFor({ emit: () => {} })).toThrow(/expected a RunContext with `resources`/);
    const context = defaultContext({ resources: new Map([[MCP_POOL_RESOURCE_KEY, { not: "a pool" }]]) });
    expect(() => mcpPoolFor(context)).toThrow(/found Object/);
  });

  it("loads tools for a run through the run's pool", async () => {
    const context = defaultContext();
    try {
      const tools = await loadMcpToolsForRun(everythingStdioConfig(), context, { include: ["get-sum"] });
      await expect(tools[0]?.execute({ a: 1, b: 1 }, toolContextFor(context))).resolves.toEqual({ text: "The sum of 1 and 1 is 2." });
      expect(mcpPoolFor(context).stats().connectionsOpened).toBe(1);
    } finally {
      await closeMcpPoolFor(context);
    }
  });
});
