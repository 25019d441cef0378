/**
 * The property form of a node, derived from its zod config schema (runtime/workflow-spec/node-configs.ts): one
 * field per key of the config object, its kind read from the schema (string, number / integer, boolean, enum,
 * array of strings, or nested JSON for objects and records), and whether it is optional. Which fields get Monaco
 * or a picker is decided by `editorFor` from the node type and key. Pure.
 */
import type { z } from "zod";
import { NODE_SCHEMAS, type NodeType } from "../../runtime/workflow-spec/workflow-spec";

/** The kind of control a config field needs. */
export type FieldKind = "string" | "number" | "integer" | "boolean" | "enum" | "string-list" | "json";

/** One field of a config form. */
export interface ConfigField {
  readonly key: string;
  readonly kind: FieldKind;
  readonly optional: boolean;
  /** Enum values (kind "enum"). */
  readonly options?: readonly string[];
  /** Minimum for numbers, when the schema says. */
  readonly min?: number;
}

interface ZodDefLike {
  type: string;
  innerType?: z.ZodType;
  element?: z.ZodType;
  entries?: Record<string, string>;
  shape?: Record<string, z.ZodType>;
  checks?: { _zod: { def: { check: string; format?: string; value?: number; inclusive?: boolean } } }[];
  options?: z.ZodType[];
  discriminator?: string;
}

function defOf(schema: z.ZodType): ZodDefLike {
  return (schema as unknown as { _zod: { def: ZodDefLike } })._zod.def;
}

function unwrap(schema: z.ZodType): { schema: z.ZodType; optional: boolean } {
  let current = schema;
  let optional = false;
  for (;;) {
    const def = defOf(current);
    if ((def.type === "optional" || def.type === "default" || def.type === "nullable") && def.innerType !== undefined) {
      optional = optional || def.type !== "nullable";
      current = def.innerType;
      continue;
    }
    return { schema: current, optional };
  }
}

/** The form field for one schema (the key is filled in by the caller). */
export function fieldOf(key: string, schema: z.ZodType): ConfigField {
  const { schema: inner, optional } = unwrap(schema);
  const def = defOf(inner);
  switch (def.type) {
    case "string":
      return { key, kind: "string", optional };
    case "boolean":
      return { key, kind: "boolean", optional };
    case "number": {
      const checks = def.checks ?? [];
      const integer = checks.some((check) => check._zod.def.check === "number_format" && (check._zod.def.format === "safeint" || check._zod.def.format === "int32"));
      const minimum = checks.find((check) => check._zod.def.check === "greater_than");
      const min = minimum === undefined ? undefined : (minimum._zod.def.value ?? 0) + (minimum._zod.def.inclusive ? 0 : integer ? 1 : 0);
      return { key, kind: integer ? "integer" : "number", optional, ...(min !== undefined ? { min } : {}) };
    }
    case "enum":
      return { key, kind: "enum", optional, options: Object.values(def.entries ?? {}) };
    case "array": {
      const element = def.element === undefined ? null : defOf(unwrap(def.element).schema);
      return { key, kind: element?.type === "string" ? "string-list" : "json", optional };
    }
    default:
      return { key, kind: "json", optional };
  }
}

/** The fields of a zod object schema, in declaration order. */
export function fieldsOfObject(schema: z.ZodType): ConfigField[] {
  const def = defOf(unwrap(schema).schema);
  if (def.type !== "object" || def.shape === undefined) return [];
  return Object.entries(def.shape).map(([key, value]) => fieldOf(key, value));
}

/** The variants of a discriminated-union config (a Tool's `kind`), by discriminator value. */
export function unionVariants(schema: z.ZodType): { discriminator: string; variants: Map<string, z.ZodType> } | null {
  const def = defOf(unwrap(schema).schema);
  if (def.type !== "union" || def.options === undefined || def.discriminator === undefined) return null;
  const variants = new Map<string, z.ZodType>();
  for (const option of def.options) {
    const shape = defOf(option).shape ?? {};
    const literal = shape[def.discriminator];
    const values = literal === undefined ? [] : ((defOf(literal) as unknown as { values?: unknown[] }).values ?? []);
    for (const value of values) if (typeof value === "string") variants.set(value, option);
  }
  return { discriminator: def.discriminator, variants };
}

/** The config schema of a node type. */
export function configSchemaOf(type: NodeType): z.ZodType {
  return (defOf(NODE_SCHEMAS[type]).shape as Record<string, z.ZodType>).config as z.ZodType;
}

/**
 * The config fields of a node: its type's fields, or for a union (Tool) the fields of the variant its
 * discriminator names, without the discriminator itself.
 */
export function configFieldsOf(type: NodeType, config: Record<string, unknown>): { fields: ConfigField[]; variant: { discriminator: string; value: string; values: string[] } | null } {
  const schema = configSchemaOf(type);
  const union = unionVariants(schema);
  if (union === null) return { fields: fieldsOfObject(schema), variant: null };
  const values = [...union.variants.keys()];
  const value = typeof config[union.discriminator] === "string" && union.variants.has(config[union.discriminator] as string) ? (config[union.discriminator] as string) : (values[0] as string);
  const fields = fieldsOfObject(union.variants.get(value) as z.ZodType).filter((field) => field.key !== union.discriminator);
  return { fields, variant: { discriminator: union.discriminator, value, values } };
}

/** Which editor a field gets beyond its kind: Monaco for prompts, code and schemas; pickers for models and tools. */
export type FieldEditor = "field" | "prompt" | "code" | "json-schema" | "json" | "provider" | "model" | "builtin-list" | "builtin-name" | "workflow";

/** The editor of `key` on a node of `type` (tool variant `kind`). */
export function editorFor(type: NodeType, field: ConfigField, kind?: string): FieldEditor {
  if (field.key === "instructions" || (type === "approval" && field.key === "prompt")) return "prompt";
  if (type === "tool" && kind === "code" && field.key === "code") return "code";
  if (type === "tool" && kind === "code" && field.key === "parametersSchema") return "json-schema";
  if (type === "tool" && kind === "builtin" && field.key === "name") return "builtin-name";
  if (field.key === "provider") return "provider";
  if (field.key === "model") return "model";
  if (type === "agent" && field.key === "builtins") return "builtin-list";
  if (type === "subworkflow" && field.key === "workflowId") return "workflow";
  if (field.kind === "json") return "json";
  return "field";
}

/** "maxRounds" → "Max rounds". */
export function fieldTitle(key: string): string {
  const words = key.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase();
  return `${words.charAt(0).toUpperCase()}${words.slice(1)}`.replace(/\bms\b/, "(ms)").replace(/\bid\b/, "ID");
}
