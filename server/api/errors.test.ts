import { TRPCError } from "@trpc/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { RathError, SYSTEM_ERROR_CODES, USER_ERROR_CODES } from "../../runtime/errors";
import { mapError, redactSecrets, toTRPCError } from "./errors";
import { formattedShape } from "./testing/api-harness";

afterEach(() => vi.restoreAllMocks());

describe("mapError", () => {
  it.each([
    ["invalid_argument", "BAD_REQUEST", 400],
    ["invalid_file", "BAD_REQUEST", 400],
    ["unsupported_schema_version", "BAD_REQUEST", 400],
    ["invalid_config", "BAD_REQUEST", 400],
    ["cycle_detected", "BAD_REQUEST", 400],
    ["invalid_workflow", "BAD_REQUEST", 422],
    ["not_found", "NOT_FOUND", 404],
    ["conflict", "CONFLICT", 409],
    ["aborted", "CLIENT_CLOSED_REQUEST", 499],
    ["unauthenticated", "UNAUTHORIZED", 401],
    ["forbidden", "FORBIDDEN", 403],
    ["payload_too_large", "PAYLOAD_TOO_LARGE", 413],
    ["unsupported_media_type", "UNSUPPORTED_MEDIA_TYPE", 415],
  ] as const)("maps %s to %s / HTTP %i and keeps the message", (code, trpcCode, httpStatus) => {
    const mapped = mapError(new RathError(code, `message of ${code}`));
    expect(mapped).toEqual({ trpcCode, httpStatus, body: { code, message: `message of ${code}` } });
  });

  it("maps every user code to a 4xx with its own message", () => {
    for (const code of USER_ERROR_CODES) {
      const mapped = mapError(new RathError(code, "visible"));
      expect(mapped.httpStatus, code).toBeGreaterThanOrEqual(400);
      expect(mapped.httpStatus, code).toBeLessThan(500);
      expect(mapped.body.message).toBe("visible");
    }
  });

  it("hides system errors and unknown errors behind a reference, logging the detail server-side", () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => undefined);
    for (const code of SYSTEM_ERROR_CODES.filter((item) => item !== "aborted" && item !== "budget_exceeded")) {
      const mapped = mapError(new RathError(code, "secret path /etc/passwd and key sk-123"));
      expect(mapped.httpStatus, code).toBe(500);
      expect(mapped.trpcCode).toBe("INTERNAL_SERVER_ERROR");
      expect(mapped.body.code).toBe("internal");
      expect(JSON.stringify(mapped.body)).not.toContain("sk-123");
      expect(mapped.body.message).toContain(mapped.body.reference as string);
    }
    const plain = mapError(new TypeError("Cannot read properties of undefined (reading 'x')"));
    expect(plain.httpStatus).toBe(500);
    expect(plain.body.message).not.toContain("Cannot read");
    expect(log).toHaveBeenCalled();
    expect(String(log.mock.calls.at(-1)?.[0])).toContain(plain.body.reference as string);
  });

  it("flattens zod errors per field", () => {
    const schema = z.object({ name: z.string().min(1), nested: z.object({ priority: z.number() }) });
    const result = schema.safeParse({ name: "", nested: { priority: "high" } });
    if (result.success) throw new Error("expected a failure");
    const mapped = mapError(result.error);
    expect(mapped.trpcCode).toBe("BAD_REQUEST");
    expect(mapped.body.code).toBe("invalid_argument");
    expect(Object.keys(mapped.body.fieldErrors ?? {}).sort()).toEqual(["name", "nested.priority"]);
    expect(mapped.body.message).toMatch(/^invalid input: name: .*\(and 1 more\)$/);
  });

  it("returns a workflow's validation problems as `problems`", () => {
    const problems = [{ code: "dead_end", message: "node a has no outgoing edge", nodeId: "a" }];
    const mapped = mapError(new RathError("invalid_workflow", "1 problem", { details: { problems } }));
    expect(mapped.body.problems).toEqual(problems);
    expect(mapped.httpStatus).toBe(422);
  });

  it("unwraps the cause of a TRPCError (input parsing) and keeps tRPC's own 4xx codes", () => {
    const wrapped = new TRPCError({ code: "BAD_REQUEST", cause: new RathError("not_found", "run x not found") });
    expect(mapError(wrapped).trpcCode).toBe("NOT_FOUND");
    expect(mapError(new TRPCError({ code: "METHOD_NOT_SUPPORTED", message: "use POST" }))).toMatchObject({
      httpStatus: 405,
      body: { message: "use POST" },
    });
  });
});

describe("the tRPC error formatter", () => {
  it("never sends a stack, and sends the mapped code, message and data", () => {
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    const shape = formattedShape(toTRPCError(new Error("database password is hunter2"), "runs.get"));
    const text = JSON.stringify(shape);
    expect(text).not.toContain("hunter2");
    expect(text).not.toContain("stack");
    expect(text).not.toMatch(/\.ts:\d+/);
    expect(shape.data).toMatchObject({ code: "internal", trpcCode: "INTERNAL_SERVER_ERROR", httpStatus: 500 });

    const conflict = formattedShape(toTRPCError(new RathError("conflict", "run changed"), "runs.cancel"));
    expect(conflict.message).toBe("run changed");
    expect(conflict.data).toMatchObject({ code: "conflict", trpcCode: "CONFLICT", httpStatus: 409 });
    expect(JSON.stringify(conflict)).not.toContain("stack");
  });
});

describe("redactSecrets", () => {
  it("removes url passwords, bearer tokens, key-like strings and key=value secrets from log text", () => {
    const text = redactSecrets(
      'connect postgres://admin:hunter2@db:5432/x failed; Authorization: Bearer abc.def-123; key sk-proj-ABCDEFGH123; {"apiKey":"zzz-secret"} password=pw1',
    );
    for (const secret of ["hunter2", "abc.def-123", "ABCDEFGH123", "zzz-secret", "pw1"]) expect(text).not.toContain(secret);
    expect(text).toContain("postgres://admin:***@db:5432/x");
    expect(text).toContain("sk-***");
  });

  it("is applied to what mapError logs", () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => undefined);
    mapError(new Error("cannot reach postgresql://root:topsecret@10.0.0.1/rath"));
    expect(String(log.mock.calls[0]?.[0])).not.toContain("topsecret");
  });
});
