import { describe, expect, it } from "vitest";
import { redactSecrets, REDACTED } from "./redact";
import { describeMcpServer, mcpConfigFingerprint, mcpSecretValues, McpServerConfig } from "./server-config";

describe("McpServerConfig", () => {
  it("accepts a stdio and an http server", () => {
    const stdio = McpServerConfig.parse({ name: "files", transport: "stdio", command: "node", args: ["server.js"], env: { TOKEN: "abcd1234" }, cwd: "/tmp" });
    const http = McpServerConfig.parse({ name: "remote", transport: "http", url: "https://mcp.example.com/mcp", headers: { Authorization: "Bearer s3cr3t-token" } });
    expect(stdio.transport).toBe("stdio");
    expect(http.transport === "http" && http.headers).toEqual({ Authorization: "Bearer s3cr3t-token" });
  });

  it("rejects an unknown transport, a missing command, a non-http url and a name with spaces", () => {
    expect(McpServerConfig.safeParse({ name: "x", transport: "sse", url: "http://a" }).success).toBe(false);
    expect(McpServerConfig.safeParse({ name: "x", transport: "stdio" }).success).toBe(false);
    expect(McpServerConfig.safeParse({ name: "x", transport: "http", url: "file:///etc/passwd" }).success).toBe(false);
    expect(McpServerConfig.safeParse({ name: "my server", transport: "stdio", command: "node" }).success).toBe(false);
  });
});

describe("describeMcpServer", () => {
  it("names the server and command but never args or env values", () => {
    const text = describeMcpServer({ name: "files", transport: "stdio", command: "node", args: ["--token=abcd1234"], env: { TOKEN: "envsecret" } });
    expect(text).toBe("MCP server 'files' (stdio: node)");
  });

  it("shows an http url without credentials, query or headers", () => {
    const text = describeMcpServer({ name: "remote", transport: "http", url: "https://user:pw1234@mcp.example.com/mcp?key=qsecret", headers: { Authorization: "Bearer hsecret" } });
    expect(text).toBe("MCP server 'remote' (http: https://mcp.example.com/mcp)");
  });
});

describe("mcpSecretValues and redactSecrets", () => {
  it("collects env values, secret-looking args, header values and their words, url credentials and query values", () => {
    expect(mcpSecretValues({ name: "a", transport: "stdio", command: "x", args: ["--api-key", "argsecret1", "--token=argsecret2", "plain"], env: { A: "envsecret", B: "1" } }).sort()).toEqual(
      ["argsecret1", "argsecret2", "envsecret"].sort(),
    );
    const http = mcpSecretValues({ name: "b", transport: "http", url: "https://user:pw1234@h.example/mcp?key=qsecret", headers: { Authorization: "Bearer hsecret" } });
    expect(http).toEqual(expect.arrayContaining(["Bearer hsecret", "hsecret", "user", "pw1234", "qsecret"]));
  });

  it("replaces every occurrence, longest secret first", () => {
    expect(redactSecrets("auth Bearer hsecret failed; hsecret again", ["hsecret", "Bearer hsecret"])).toBe(
      `auth ${REDACTED} failed; ${REDACTED} again`,
    );
  });
});

describe("mcpConfigFingerprint", () => {
  it("ignores key order and tells different configs apart", () => {
    const one = mcpConfigFingerprint({ name: "a", transport: "stdio", command: "node", env: { X: "1", Y: "2" } });
    const same = mcpConfigFingerprint({ env: { Y: "2", X: "1" }, command: "node", transport: "stdio", name: "a" });
    const other = mcpConfigFingerprint({ name: "a", transport: "stdio", command: "python" });
    expect(one).toBe(same);
    expect(one).not.toBe(other);
  });
});
