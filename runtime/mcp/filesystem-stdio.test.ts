import { mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ToolFailure } from "../tools/types";
import { McpConnectionPool } from "./connection-pool";
import { loadMcpTools, type McpTool } from "./load-tools";
import { filesystemStdioConfig, toolContextFor } from "./test-servers";

/** The real server-filesystem over stdio, confined to a temporary directory. */
describe("MCP tools from server-filesystem over stdio", () => {
  const pool = new McpConnectionPool();
  let root = "";
  let outside = "";
  let tools: McpTool[] = [];

  const tool = (name: string): McpTool => {
    const found = tools.find((candidate) => candidate.name === name);
    if (found === undefined) throw new Error(`no tool ${name}`);
    return found;
  };

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), "rath-mcp-fs-"));
    outside = await mkdtemp(join(tmpdir(), "rath-mcp-outside-"));
    await writeFile(join(outside, "secret.txt"), "outside the sandbox");
    tools = await loadMcpTools(filesystemStdioConfig(root), pool, { prefix: true });
  });

  afterAll(async () => {
    await pool.closeAll();
    await Promise.all([root, outside].filter(Boolean).map((directory) => rm(directory, { recursive: true, force: true })));
  });

  it("offers prefixed file tools; write_file is idempotent by annotation", () => {
    const names = tools.map((candidate) => candidate.name);
    expect(names).toEqual(expect.arrayContaining(["filesystem__read_text_file", "filesystem__write_file", "filesystem__list_directory"]));
    expect(tool("filesystem__write_file").idempotent).toBe(true);
    expect(tool("filesystem__move_file").idempotent).toBe(false);
  });

  it("writes a file inside the allowed directory and reads it back", async () => {
    const path = join(root, "notes.txt");
    const written = await tool("filesystem__write_file").execute({ path, content: "line one\nline two" }, toolContextFor());
    expect(written.text).toBe(`Successfully wrote to ${path}`);
    expect(await readFile(path, "utf8")).toBe("line one\nline two");
    const read = await tool("filesystem__read_text_file").execute({ path }, toolContextFor());
    expect(read).toEqual({ text: "line one\nline two", structured_content: { content: "line one\nline two" } });
  });

  it("refuses a path outside the allowed directory, by absolute path, by '..' and by symlink", async () => {
    const attempts = [
      join(outside, "secret.txt"),
      join(root, "..", outside.split("/").pop() ?? "", "secret.txt"),
    ];
    await symlink(join(outside, "secret.txt"), join(root, "link.txt"));
    attempts.push(join(root, "link.txt"));
    for (const path of attempts) {
      const failure = await tool("filesystem__read_text_file").execute({ path }, toolContextFor()).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(ToolFailure);
      expect((failure as ToolFailure).kind).toBe("tool_execution_exception");
      expect((failure as ToolFailure).message).toMatch(/Access denied/);
    }
    const write = await tool("filesystem__write_file").execute({ path: join(outside, "new.txt"), content: "x" }, toolContextFor()).catch((error: unknown) => error);
    expect((write as ToolFailure).message).toMatch(/Access denied - path outside allowed directories/);
    await expect(readFile(join(outside, "new.txt"), "utf8")).rejects.toThrow(/ENOENT/);
    expect(pool.stats().connectionsOpened).toBe(1);
  });
});
