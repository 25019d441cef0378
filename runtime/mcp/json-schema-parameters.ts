import { z } from "zod";

/** MCP tool arguments: always a JSON object. */
export const McpToolArguments = z.record(z.string(), z.unknown());
export type McpToolArguments = z.infer<typeof McpToolArguments>;

/**
 * A zod schema that checks arguments against an MCP tool's JSON input schema (via zod's `fromJSONSchema`) without
 * changing them: the server gets what the model sent and applies its own defaults. A schema zod cannot convert
 * (e.g. a `$ref` into draft-07 `definitions`) falls back to "any object", leaving validation to the server.
 */
export function parametersFromJsonSchema(inputSchema: Record<string, unknown>): z.ZodType<McpToolArguments> {
  const converted = convert(inputSchema);
  if (converted === null) return McpToolArguments;
  return McpToolArguments.superRefine((value, context) => {
    const result = converted.safeParse(value);
    if (result.success) return;
    for (const issue of result.error.issues) {
      context.addIssue({ ...issue, input: undefined });
    }
  });
}

function convert(inputSchema: Record<string, unknown>): z.ZodType | null {
  try {
    return z.fromJSONSchema(inputSchema);
  } catch {
    return null;
  }
}
