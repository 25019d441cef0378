import { describe, expect, it } from "vitest";
import { joinedText, McpToolResult, toMcpToolResult } from "./tool-result";

describe("toMcpToolResult", () => {
  it("joins text blocks, keeps structured content and summarises other blocks without their data", () => {
    const result = toMcpToolResult({
      content: [
        { type: "text", text: "first" },
        { type: "image", data: "aGVsbG8=", mimeType: "image/png" },
        { type: "text", text: "second" },
        { type: "resource_link", uri: "demo://a", name: "a.txt", mimeType: "text/plain" },
        { type: "resource", resource: { uri: "demo://b", mimeType: "text/plain", text: "inline" } },
        { type: "resource", resource: { uri: "demo://c", blob: "AAAA" } },
      ],
      structuredContent: { temperature: 36 },
    });
    expect(result).toEqual({
      text: "first\nsecond",
      structured_content: { temperature: 36 },
      other_content: [
        { type: "image", mime_type: "image/png", size_bytes: 5 },
        { type: "resource_link", uri: "demo://a", name: "a.txt", mime_type: "text/plain" },
        { type: "resource", uri: "demo://b", mime_type: "text/plain", text: "inline" },
        { type: "resource", uri: "demo://c", size_bytes: 3 },
      ],
    });
    expect(McpToolResult.safeParse(result).success).toBe(true);
  });

  it("gives only the text for a text-only result", () => {
    expect(toMcpToolResult({ content: [{ type: "text", text: "Echo: hi" }] })).toEqual({ text: "Echo: hi" });
    expect(joinedText({ content: [] })).toBe("");
  });
});
