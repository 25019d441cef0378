/**
 * The JSON Schema vocabulary (draft-07 keywords) as a schema, written for the editor: Monaco's JSON language
 * service validates a tool's parameters schema against it (wrong keyword types, unknown `type` names...).
 */
const schemaOrBoolean = { anyOf: [{ $ref: "#" }, { type: "boolean" }] };
const schemaArray = { type: "array", minItems: 1, items: { $ref: "#" } };
const nonNegativeInteger = { type: "integer", minimum: 0 };
const simpleTypes = { enum: ["array", "boolean", "integer", "null", "number", "object", "string"] };

/** A JSON schema describing JSON schemas. */
export const JSON_SCHEMA_META_SCHEMA = {
  $id: "inmemory://rath/json-schema-meta-schema.json",
  title: "JSON Schema",
  type: ["object", "boolean"],
  properties: {
    $id: { type: "string" },
    $schema: { type: "string" },
    $ref: { type: "string" },
    $comment: { type: "string" },
    title: { type: "string" },
    description: { type: "string" },
    default: true,
    readOnly: { type: "boolean" },
    examples: { type: "array" },
    multipleOf: { type: "number", exclusiveMinimum: 0 },
    maximum: { type: "number" },
    exclusiveMaximum: { type: "number" },
    minimum: { type: "number" },
    exclusiveMinimum: { type: "number" },
    maxLength: nonNegativeInteger,
    minLength: nonNegativeInteger,
    pattern: { type: "string", format: "regex" },
    additionalItems: schemaOrBoolean,
    items: { anyOf: [{ $ref: "#" }, { type: "boolean" }, schemaArray] },
    maxItems: nonNegativeInteger,
    minItems: nonNegativeInteger,
    uniqueItems: { type: "boolean" },
    contains: schemaOrBoolean,
    maxProperties: nonNegativeInteger,
    minProperties: nonNegativeInteger,
    required: { type: "array", items: { type: "string" }, uniqueItems: true },
    additionalProperties: schemaOrBoolean,
    definitions: { type: "object", additionalProperties: schemaOrBoolean },
    properties: { type: "object", additionalProperties: schemaOrBoolean },
    patternProperties: { type: "object", additionalProperties: schemaOrBoolean },
    dependencies: { type: "object", additionalProperties: { anyOf: [{ $ref: "#" }, { type: "boolean" }, { type: "array", items: { type: "string" } }] } },
    propertyNames: schemaOrBoolean,
    const: true,
    enum: { type: "array", items: true },
    type: { anyOf: [simpleTypes, { type: "array", items: simpleTypes, minItems: 1, uniqueItems: true }] },
    format: { type: "string" },
    contentMediaType: { type: "string" },
    contentEncoding: { type: "string" },
    if: schemaOrBoolean,
    then: schemaOrBoolean,
    else: schemaOrBoolean,
    allOf: schemaArray,
    anyOf: schemaArray,
    oneOf: schemaArray,
    not: schemaOrBoolean,
  },
} as const;
