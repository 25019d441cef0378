/**
 * The typings Monaco gets for a custom tool's code: `ToolArgs`, derived from the tool's parameters schema, and
 * `RathTool`, the shape of the module's default export. Pure (string building), unit-tested.
 */
import { isRecord } from "../../runtime/is-record";

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** A TypeScript type for a JSON schema (objects, arrays, enums, primitives; `unknown` for the rest). */
export function schemaToTypeScript(schema: unknown, depth = 0): string {
  if (!isRecord(schema) || depth > 6) return "unknown";
  if (Array.isArray(schema.enum)) return schema.enum.map((value) => JSON.stringify(value)).join(" | ") || "never";
  const type = schema.type;
  if (Array.isArray(type)) return (type as unknown[]).map((one) => schemaToTypeScript({ ...schema, type: one }, depth + 1)).join(" | ");
  switch (type) {
    case "string":
      return "string";
    case "number":
    case "integer":
      return "number";
    case "boolean":
      return "boolean";
    case "null":
      return "null";
    case "array":
      return `Array<${schemaToTypeScript(schema.items, depth + 1)}>`;
    case "object": {
      const properties = isRecord(schema.properties) ? schema.properties : {};
      const required = new Set(Array.isArray(schema.required) ? schema.required.filter((name): name is string => typeof name === "string") : []);
      const indent = "  ".repeat(depth + 1);
      const lines = Object.entries(properties).map(([name, property]) => {
        const key = IDENTIFIER.test(name) ? name : JSON.stringify(name);
        const doc = isRecord(property) && typeof property.description === "string" ? `${indent}/** ${property.description.replaceAll("*/", "* /")} */\n` : "";
        return `${doc}${indent}${key}${required.has(name) ? "" : "?"}: ${schemaToTypeScript(property, depth + 1)};`;
      });
      return lines.length === 0 ? "Record<string, unknown>" : `{\n${lines.join("\n")}\n${"  ".repeat(depth)}}`;
    }
    default:
      return "unknown";
  }
}

/** The declaration file for one tool's code. */
export function toolTypings(toolName: string, parametersSchema: unknown): string {
  return [
    `/** The arguments of tool '${toolName}', as its parameters schema declares them (checked before your code runs). */`,
    `type ToolArgs = ${schemaToTypeScript(parametersSchema)};`,
    "",
    "/** A tool: the module's default export, called with the model's arguments; its result (any JSON value) goes back to the model. */",
    "type RathTool = (args: ToolArgs) => unknown | Promise<unknown>;",
    "",
  ].join("\n");
}

/** Starter code for a new code tool. */
export const TOOL_CODE_TEMPLATE = `/**
 * Runs in a child \`node\` process in the session's sandbox; Node built-ins (node:fs…) are available.
 * @type {RathTool}
 */
export default async function tool(args) {
  return { ok: true, received: args };
}
`;
