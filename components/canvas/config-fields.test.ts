import { describe, expect, it } from "vitest";
import { NODE_TYPES } from "../../runtime/workflow-spec/workflow-spec";
import { configFieldsOf, editorFor, fieldTitle } from "./config-fields";

describe("config forms derived from the zod node configs", () => {
  it("reads kinds, optionality, enums and integer minimums from the schemas", () => {
    const agent = configFieldsOf("agent", {}).fields;
    expect(agent.map((field) => field.key)).toEqual(["name", "instructions", "provider", "model", "maxRounds", "builtins", "policy"]);
    expect(agent.find((field) => field.key === "name")).toMatchObject({ kind: "string", optional: false });
    expect(agent.find((field) => field.key === "maxRounds")).toMatchObject({ kind: "integer", optional: true, min: 1 });
    expect(agent.find((field) => field.key === "builtins")).toMatchObject({ kind: "string-list" });
    expect(agent.find((field) => field.key === "policy")).toMatchObject({ kind: "json" });
    const memory = configFieldsOf("memory", {}).fields;
    expect(memory.find((field) => field.key === "scope")).toMatchObject({ kind: "enum", options: ["user", "agent", "session", "resources"] });
    expect(memory.find((field) => field.key === "recall")).toMatchObject({ kind: "boolean", optional: false });
  });

  it("gives a Tool the fields of the variant its kind names", () => {
    const code = configFieldsOf("tool", { kind: "code" });
    expect(code.variant).toEqual({ discriminator: "kind", value: "code", values: ["builtin", "code", "mcp"] });
    expect(code.fields.map((field) => field.key)).toEqual(["name", "description", "parametersSchema", "code", "timeoutMs"]);
    expect(editorFor("tool", code.fields[3] as never, "code")).toBe("code");
    expect(editorFor("tool", code.fields[2] as never, "code")).toBe("json-schema");
    const mcp = configFieldsOf("tool", { kind: "mcp" });
    expect(mcp.fields.map((field) => field.key)).toEqual(["server", "tools"]);
  });

  it("has a form for every node type and readable titles", () => {
    for (const type of NODE_TYPES) expect(Array.isArray(configFieldsOf(type, {}).fields)).toBe(true);
    expect(fieldTitle("maxRounds")).toBe("Max rounds");
    expect(fieldTitle("timeoutMs")).toBe("Timeout (ms)");
  });
});
