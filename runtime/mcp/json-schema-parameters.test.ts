import { describe, expect, it } from "vitest";
import { parametersFromJsonSchema } from "./json-schema-parameters";

const sumSchema = {
  type: "object",
  properties: { a: { type: "number" }, b: { type: "number" }, mode: { type: "string", enum: ["fast", "exact"], default: "fast" } },
  required: ["a", "b"],
  $schema: "http://json-schema.org/draft-07/schema#",
};

describe("parametersFromJsonSchema", () => {
  it("accepts valid arguments unchanged (no defaults filled in, extra keys kept)", () => {
    const parameters = parametersFromJsonSchema(sumSchema);
    expect(parameters.parse({ a: 1, b: 2, note: "x" })).toEqual({ a: 1, b: 2, note: "x" });
  });

  it("rejects a wrong type, a missing required property and a value outside the enum, with paths", () => {
    const parameters = parametersFromJsonSchema(sumSchema);
    const wrongType = parameters.safeParse({ a: "1", b: 2 });
    expect(wrongType.success).toBe(false);
    expect(wrongType.error?.issues[0]).toMatchObject({ path: ["a"], code: "invalid_type", message: "Invalid input: expected number, received string" });
    const missing = parameters.safeParse({ a: 1 });
    expect(missing.error?.issues.map((issue) => issue.path)).toEqual([["b"]]);
    expect(parameters.safeParse({ a: 1, b: 2, mode: "slow" }).success).toBe(false);
  });

  it("requires an object", () => {
    expect(parametersFromJsonSchema(sumSchema).safeParse([1, 2]).success).toBe(false);
    expect(parametersFromJsonSchema({ type: "object" }).safeParse("text").success).toBe(false);
  });

  it("checks integers, booleans, arrays and additionalProperties false", () => {
    const parameters = parametersFromJsonSchema({
      type: "object",
      properties: { count: { type: "integer" }, flag: { type: "boolean" }, tags: { type: "array", items: { type: "string" } } },
      additionalProperties: false,
    });
    expect(parameters.safeParse({ count: 2, flag: true, tags: ["a"] }).success).toBe(true);
    expect(parameters.safeParse({ count: 2.5 }).success).toBe(false);
    expect(parameters.safeParse({ flag: "yes" }).success).toBe(false);
    expect(parameters.safeParse({ tags: [1] }).success).toBe(false);
    expect(parameters.safeParse({ other: 1 }).success).toBe(false);
  });

  it("falls back to 'any object' for a schema zod cannot convert", () => {
    const parameters = parametersFromJsonSchema({
      type: "object",
      properties: { a: { $ref: "#/definitions/name" } },
      definitions: { name: { type: "string" } },
    });
    expect(parameters.safeParse({ a: 5 }).success).toBe(true);
    expect(parameters.safeParse(5).success).toBe(false);
  });
});
