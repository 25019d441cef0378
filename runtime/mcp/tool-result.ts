import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";

/** A non-text content block, summarised: binary data is counted, not copied into the session. */
export const McpContentSummary = z.object({
  type: z.string(),
  mime_type: z.string().optional(),
  uri: z.string().optional(),
  name: z.string().optional(),
  /** Decoded size of base64 data (images, audio, blob resources). */
  size_bytes: z.number().int().nonnegative().optional(),
  /** The text of an embedded text resource. */
  text: z.string().optional(),
});
export type McpContentSummary = z.infer<typeof McpContentSummary>;

/** What an MCP tool call returns to the runtime: the text blocks joined, structured content kept, the rest summarised. */
export const McpToolResult = z.object({
  text: z.string(),
  structured_content: z.record(z.string(), z.unknown()).optional(),
  other_content: z.array(McpContentSummary).optional(),
});
export type McpToolResult = z.infer<typeof McpToolResult>;

type ContentBlock = CallToolResult["content"][number];

/** Converts a server's `tools/call` result; the caller handles `isError` first. */
export function toMcpToolResult(result: CallToolResult): McpToolResult {
  const others = result.content.filter((block) => block.type !== "text").map(summarise);
  return {
    text: joinedText(result),
    ...(result.structuredContent !== undefined ? { structured_content: result.structuredContent } : {}),
    ...(others.length > 0 ? { other_content: others } : {}),
  };
}

/** The text blocks of a result, joined by newlines (what an `isError` result says went wrong). */
export function joinedText(result: CallToolResult): string {
  return result.content
    .flatMap((block) => (block.type === "text" ? [block.text] : []))
    .join("\n");
}

function summarise(block: ContentBlock): McpContentSummary {
  switch (block.type) {
    case "image":
    case "audio":
      return { type: block.type, mime_type: block.mimeType, size_bytes: base64Size(block.data) };
    case "resource_link":
      return {
        type: block.type,
        uri: block.uri,
        name: block.name,
        ...(block.mimeType !== undefined ? { mime_type: block.mimeType } : {}),
      };
    case "resource": {
      const resource = block.resource;
      return {
        type: block.type,
        uri: resource.uri,
        ...(resource.mimeType !== undefined ? { mime_type: resource.mimeType } : {}),
        ...("text" in resource && typeof resource.text === "string" ? { text: resource.text } : {}),
        ...("blob" in resource && typeof resource.blob === "string" ? { size_bytes: base64Size(resource.blob) } : {}),
      };
    }
    default:
      return { type: block.type };
  }
}

function base64Size(data: string): number {
  const padding = data.endsWith("==") ? 2 : data.endsWith("=") ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}
