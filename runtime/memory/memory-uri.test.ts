import { describe, expect, it } from "vitest";
import { isRathError } from "../errors";
import { memoryUri, parseMemoryUri } from "./memory-uri";

function codeOf(action: () => unknown): string | undefined {
  try {
    action();
    return undefined;
  } catch (error) {
    return isRathError(error) ? error.code : "not a RathError";
  }
}

describe("parseMemoryUri", () => {
  it("parses scope and segments", () => {
    expect(parseMemoryUri("memory://user/preferences/tea")).toEqual({ scope: "user", segments: ["preferences", "tea"] });
    expect(memoryUri("resources", "docs", "a")).toBe("memory://resources/docs/a");
  });

  it.each([
    ["memory://user/../agent/x"],
    ["memory://user/./x"],
    ["memory://user//x"],
    ["memory://user/x/.."],
    ["memory://planet/x"],
    ["file:///etc/passwd"],
    ["memory://user"],
  ])("refuses %s with invalid_memory_uri", (uri) => {
    expect(codeOf(() => parseMemoryUri(uri))).toBe("invalid_memory_uri");
  });

  it.each(["user", "agent", "session", "resources"])("accepts the scope %s", (scope) => {
    expect(parseMemoryUri(`memory://${scope}/notes/a`)).toEqual({ scope, segments: ["notes", "a"] });
  });

  it("allows a bare scope only for filters", () => {
    expect(parseMemoryUri("memory://agent/", { allowScopeOnly: true })).toEqual({ scope: "agent", segments: [] });
  });
});
