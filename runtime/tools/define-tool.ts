import type { z } from "zod";
import { RathError } from "../errors";
import { toModelJsonSchema } from "./json-schema";
import type { Tool, ToolContext } from "./types";

/** Tool names the model APIs accept. */
export const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

/** What `defineTool` takes: a name, a description, a zod schema for the arguments and the function. */
export interface ToolDefinition<Schema extends z.ZodType, Result> {
  readonly name: string;
  readonly description: string;
  readonly parameters: Schema;
  execute(args: z.output<Schema>, context: ToolContext): Promise<Result> | Result;
  /** May run concurrently with other calls of the round that have a different resource key (default false). */
  readonly parallelSafe?: boolean;
  /** Calls with the same key run in order; null (the default) gives each call its own key. */
  resourceKey?: (args: z.output<Schema>) => string | null;
  /** Safe to repeat after a crash (default false). */
  readonly idempotent?: boolean;
  /** The JSON schema to show the model instead of the one derived from `parameters` (e.g. an MCP tool's). */
  readonly jsonSchema?: Record<string, unknown>;
}

function isZodSchema(value: unknown): value is z.ZodType {
  return typeof value === "object" && value !== null && typeof (value as { safeParse?: unknown }).safeParse === "function";
}

/**
 * Makes a model-visible tool from a zod schema and a function. The runtime validates the model's arguments
 * against `parameters` before `execute` runs. A bad name or a non-object schema is `invalid_tool_definition`.
 */
export function defineTool<Schema extends z.ZodType, Result>(definition: ToolDefinition<Schema, Result>): Tool<z.output<Schema>, Result> {
  const { name, description, parameters } = definition;
  if (typeof name !== "string" || !TOOL_NAME_PATTERN.test(name)) {
    throw new RathError("invalid_tool_definition", `invalid tool name '${String(name)}'; expected 1-64 characters from [a-zA-Z0-9_-]`);
  }
  if (typeof description !== "string") {
    throw new RathError("invalid_tool_definition", `tool '${name}': description must be a string; found ${typeof description}`);
  }
  if (!isZodSchema(parameters)) {
    throw new RathError("invalid_tool_definition", `tool '${name}': parameters must be a zod schema; found ${typeof parameters}`);
  }
  const jsonSchema = definition.jsonSchema ?? toModelJsonSchema(name, parameters);
  const resourceKey = definition.resourceKey;
  return Object.freeze({
    name,
    description,
    parameters: parameters as z.ZodType<z.output<Schema>>,
    jsonSchema,
    parallelSafe: definition.parallelSafe ?? false,
    idempotent: definition.idempotent ?? false,
    resourceKey: (args: z.output<Schema>) => (resourceKey ? resourceKey(args) : null),
    execute: async (args: z.output<Schema>, context: ToolContext) => definition.execute(args, context),
  });
}
