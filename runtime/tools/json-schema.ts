import { z } from "zod";
import { RathError } from "../errors";

/**
 * The JSON schema a model sees for a tool's parameters: zod 4's `z.toJSONSchema` of the input side
 * (fields with defaults are optional), without the `$schema` key, always an object with `properties`,
 * `required` and (as the reference's built-ins say) `additionalProperties: false` unless the schema says otherwise. A schema that is not an object, or that JSON schema cannot express, is `invalid_tool_definition`.
 */
export function toModelJsonSchema(tool: string, parameters: z.ZodType): Record<string, unknown> {
  let schema: Record<string, unknown>;
  try {
    schema = z.toJSONSchema(parameters, { io: "input" });
  } catch (error) {
    throw new RathError("invalid_tool_definition", `tool '${tool}': parameters cannot be expressed as JSON schema: ${(error as Error).message}`, {
      cause: error,
    });
  }
  const { $schema: _dropped, ...rest } = schema;
  if (rest.type !== "object") {
    throw new RathError(
      "invalid_tool_definition",
      `tool '${tool}': parameters must be a zod object schema; found JSON schema type '${typeof rest.type === "string" ? rest.type : JSON.stringify(rest.type ?? "none")}'`,
    );
  }
  return { ...rest, properties: rest.properties ?? {}, required: rest.required ?? [], additionalProperties: rest.additionalProperties ?? false };
}
