import { describe, expect, it } from "vitest";
import { parsePythonJson, pythonJsonText } from "./python-json";

/** The texts `pythonJsonText` wrote before it tried JSON.stringify first (the walk decided every time). */
const EXPECTED: Array<[string, unknown, string]> = [
  ["a plain object", { a: 1, b: "x", c: [true, false], d: { e: 1.5 } }, '{"a":1,"b":"x","c":[true,false],"d":{"e":1.5}}'],
  ["null values", { usage: null, provider: null, list: [null] }, '{"usage":null,"provider":null,"list":[null]}'],
  ["a string holding null", { text: "nullable" }, '{"text":"nullable"}'],
  ["NaN nested", { a: { b: [1, Number.NaN] } }, '{"a":{"b":[1,NaN]}}'],
  ["infinities", [Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, null], "[Infinity,-Infinity,null]"],
  ["NaN beside null", { a: null, b: Number.NaN }, '{"a":null,"b":NaN}'],
  ["a big integer", { id: 12345678901234567890n }, '{"id":12345678901234567890}'],
  ["a bigint beside NaN", [1n, Number.NaN], "[1,NaN]"],
  ["undefined and functions", { a: undefined, b: () => 1, c: [undefined] }, '{"c":[null]}'],
  ["an array hole", [1, , 3], "[1,null,3]"],
  ["a date", { at: new Date(Date.UTC(2026, 11, 5, 10, 0, 0)) }, '{"at":"2026-12-05T10:00:00.000Z"}'],
  ["a toJSON hiding NaN", { toJSON: () => ({ shown: 1 }), hidden: Number.NaN }, '{"shown":1}'],
  ["line breaks", { text: "a\u2028b\u0085c" }, '{"text":"a\\u2028b\\u0085c"}'],
  ["line breaks beside NaN", ["\u2029", Number.NaN], '["\\u2029",NaN]'],
  ["a bare string", "plain", '"plain"'],
  ["a bare number", 42, "42"],
  ["a bare NaN", Number.NaN, "NaN"],
  ["undefined", undefined, "null"],
  ["null", null, "null"],
  ["negative zero", -0, "0"],
];

describe("pythonJsonText", () => {
  it.each(EXPECTED)("writes %s as before", (_name, value, text) => {
    expect(pythonJsonText(value)).toBe(text);
  });

  it("reads back what it writes, NaN and big integers included", () => {
    const value = { a: [1, Number.NaN, null], b: 12345678901234567890n, c: "x\u2028" };
    expect(parsePythonJson(pythonJsonText(value))).toEqual(value);
  });

  it("still refuses a cycle, as JSON.stringify does", () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    expect(() => pythonJsonText(cyclic)).toThrow(TypeError);
  });
});
