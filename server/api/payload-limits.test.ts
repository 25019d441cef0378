/**
 * Size limits through the API (both databases): a run input or spec past its limit, or a bundle past the import
 * limit, is refused with `payload_too_large` naming the limit and its variable — and nothing is stored.
 */
import { afterEach, describe, expect, it } from "vitest";
import { describeEachDatabase } from "../db/testing/test-databases";
import { runToCompletion } from "../engine/run-to-completion";
import { MEBIBYTE, payloadLimits } from "../services/payload-limits";
import { callerFor, exampleSpec, expectApiError, rowCounts } from "./testing/api-harness";

const saved = { ...process.env };
afterEach(() => {
  for (const variable of ["RATH_MAX_RUN_INPUT_BYTES", "RATH_MAX_SPEC_BYTES", "RATH_MAX_IMPORT_BYTES", "RATH_MAX_REQUEST_BYTES"]) {
    if (saved[variable] === undefined) delete process.env[variable];
    else process.env[variable] = saved[variable];
  }
});

/** A string whose JSON encoding is exactly `bytes` bytes long. */
function jsonStringOfBytes(bytes: number): string {
  return "x".repeat(bytes - 2);
}

describe("payload limits from the environment", () => {
  it("defaults to 1 MiB input and spec, 100 MiB imports, and reads sizes with units", () => {
    expect(payloadLimits({})).toEqual({ runInputBytes: MEBIBYTE, specBytes: MEBIBYTE, importBytes: 100 * MEBIBYTE, requestBytes: 3 * MEBIBYTE });
    expect(payloadLimits({ RATH_MAX_RUN_INPUT_BYTES: "512KB", RATH_MAX_IMPORT_BYTES: "2 MiB", RATH_MAX_SPEC_BYTES: "1000" })).toMatchObject({
      runInputBytes: 512 * 1024,
      importBytes: 2 * MEBIBYTE,
      specBytes: 1000,
    });
    expect(() => payloadLimits({ RATH_MAX_SPEC_BYTES: "lots" })).toThrow(/RATH_MAX_SPEC_BYTES must be a size.*"lots"/);
    expect(() => payloadLimits({ RATH_MAX_IMPORT_BYTES: "0" })).toThrow(/RATH_MAX_IMPORT_BYTES/);
  });
});

describeEachDatabase("payload limits", (open) => {
  it("a run input of 1 MiB is accepted, one byte more is 413 and stores nothing", async () => {
    const { database } = await open();
    const api = callerFor(database);
    const { workflow } = await api.workflows.create({ name: "limits", spec: exampleSpec("hello-agent") });
    const before = await rowCounts(database);
    const error = await expectApiError(api.runs.start({ workflowId: workflow.id, input: jsonStringOfBytes(MEBIBYTE + 1) }), "PAYLOAD_TOO_LARGE");
    expect(error).toMatchObject({ code: "payload_too_large", httpStatus: 413 });
    expect(error.message).toBe("the run input is too large: the limit is 1,048,576 bytes (1 MiB) (set RATH_MAX_RUN_INPUT_BYTES to change it); found 1,048,577 bytes (1 MiB)");
    expect(await rowCounts(database)).toEqual(before);
    const { run } = await api.runs.start({ workflowId: workflow.id, input: jsonStringOfBytes(MEBIBYTE) });
    expect(run.status).toBe("queued");
  });

  it("a spec past RATH_MAX_SPEC_BYTES is 413 on create, saveRevision, validate and inline runs; nothing is stored", async () => {
    process.env.RATH_MAX_SPEC_BYTES = "20KB";
    const { database } = await open();
    const api = callerFor(database);
    const { workflow } = await api.workflows.create({ name: "limits", spec: exampleSpec("hello-agent") });
    const big = { ...exampleSpec("hello-agent"), description: "d".repeat(21 * 1024) };
    const before = await rowCounts(database);
    for (const call of [
      api.workflows.create({ name: "too big", spec: big }),
      api.workflows.saveRevision({ workflowId: workflow.id, spec: big }),
      api.workflows.validate({ spec: big }),
      api.runs.start({ spec: big, input: "hi" }),
    ]) {
      const error = await expectApiError(call, "PAYLOAD_TOO_LARGE");
      expect(error.code).toBe("payload_too_large");
      expect(error.message).toContain("the workflow spec is too large: the limit is 20,480 bytes (20 KiB) (set RATH_MAX_SPEC_BYTES");
    }
    expect(await rowCounts(database)).toEqual(before);
  });

  it("a bundle past RATH_MAX_IMPORT_BYTES is 413 and imports nothing; under it, it imports", async () => {
    const { database } = await open();
    const api = callerFor(database);
    const { run } = await api.runs.start({ spec: exampleSpec("hello-agent"), input: "hi" });
    await runToCompletion(database, run.id);
    const exported = await api.transfer.exportRun({ runId: run.id });
    if (exported.dialect !== "rath") throw new Error("expected a bundle");
    const size = Buffer.byteLength(exported.bundle.content);
    process.env.RATH_MAX_IMPORT_BYTES = String(size - 1);
    const before = await rowCounts(database);
    const error = await expectApiError(api.transfer.importBundle({ content: exported.bundle.content }), "PAYLOAD_TOO_LARGE");
    expect(error.message).toContain("the run bundle is too large");
    expect(error.message).toContain("RATH_MAX_IMPORT_BYTES");
    expect(await rowCounts(database)).toEqual(before);
    process.env.RATH_MAX_IMPORT_BYTES = String(size);
    expect((await api.transfer.importBundle({ content: exported.bundle.content })).status).toBe("succeeded");
  });
});
