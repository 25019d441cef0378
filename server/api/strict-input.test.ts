import { expect, it } from "vitest";
import { z } from "zod";
import { describeEachDatabase } from "../db/testing/test-databases";
import { strictInput } from "./strict-input";
import { callerFor, exampleSpec, expectApiError, rowCounts } from "./testing/api-harness";

it("strictInput makes the top-level object strict through optional/default, keeping refinements; cursor inputs accept tRPC's direction", () => {
  const refined = strictInput(z.object({ a: z.number().optional(), b: z.number().optional() }).refine((value) => (value.a === undefined) !== (value.b === undefined)));
  expect(refined.safeParse({ a: 1 }).success).toBe(true);
  expect(refined.safeParse({ a: 1, b: 2 }).success).toBe(false);
  expect(refined.safeParse({ a: 1, c: 3 }).error?.issues[0]?.message).toBe('Unrecognized key: "c"');
  const optional = strictInput(z.object({ limit: z.number() }).optional());
  expect(optional.safeParse(undefined).success).toBe(true);
  expect(optional.safeParse({ limit: 1, extra: true }).success).toBe(false);
  const defaulted = strictInput(z.object({ limit: z.number().default(5) }).default({ limit: 5 }));
  expect(defaulted.parse(undefined)).toEqual({ limit: 5 });
  expect(defaulted.safeParse({ limit: 1, offset: 2 }).success).toBe(false);
  const paged = strictInput(z.object({ cursor: z.string().optional() }));
  expect(paged.safeParse({ cursor: "3", direction: "forward" }).success).toBe(true);
  expect(paged.safeParse({ cursor: "3", direction: "sideways" }).success).toBe(false);
});

describeEachDatabase("tRPC inputs refuse unknown keys, as the HTTP API does", (open) => {
  it("a misspelt key is BAD_REQUEST naming the key, and nothing is written", async () => {
    const { database } = await open();
    const api = callerFor(database);
    const { workflow } = await api.workflows.create({ name: "hello", spec: exampleSpec("hello-agent") });
    const before = await rowCounts(database);
    const error = await expectApiError(api.runs.start({ workflowId: workflow.id, input: "hi", priorty: 5 } as never), "BAD_REQUEST");
    expect(JSON.stringify(error)).toContain("priorty");
    await expectApiError(api.workflows.create({ name: "x", spec: exampleSpec("hello-agent"), descripton: "typo" } as never), "BAD_REQUEST");
    await expectApiError(api.runs.get({ runId: "run_x", verbose: true } as never), "BAD_REQUEST");
    expect(await rowCounts(database)).toEqual(before);
    // What the IDE sends still works: an infinite query's page carries `direction`.
    const run = await api.runs.start({ workflowId: workflow.id, input: "hi" });
    expect(run.created).toBe(true);
    expect((await api.runs.list({ workflowId: workflow.id, limit: 10 })).runs).toHaveLength(1);
  });
});
