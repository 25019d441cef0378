import { afterAll, describe, expect, it } from "vitest";
import { bindSandbox } from "../../../runtime/sandbox/bind";
import { Session } from "../../../runtime/session/session";
import { ToolFailure, type Tool } from "../../../runtime/tools/types";
import type { ToolConfig } from "../../../runtime/workflow-spec/node-configs";
import { codeTool } from "./code-tool";

type CodeToolConfig = Extract<ToolConfig, { kind: "code" }>;

function config(code: string, extra: Partial<CodeToolConfig> = {}): CodeToolConfig {
  return { kind: "code", name: "user_tool", description: "A user's tool.", parametersSchema: { type: "object" }, code, ...extra };
}

const sessions: Session[] = [];

async function call(tool: Tool, args: unknown): Promise<unknown> {
  const session = await bindSandbox(Session.create("user", "hi"));
  sessions.push(session);
  const controller = new AbortController();
  return tool.execute(args, { session, sandbox: session.handle, run: { emit: () => {} }, signal: controller.signal, callId: "call_1" });
}

afterAll(async () => {
  for (const session of sessions) await session.release();
});

describe("codeTool", () => {
  it("runs the user's default export in a child node process with the arguments", async () => {
    const tool = codeTool(
      config("export default async ({ a, b }) => ({ sum: a + b, pid: process.pid, cwd: process.cwd() });", {
        parametersSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] },
      }),
    );
    const result = (await call(tool, { a: 2, b: 3 })) as { sum: number; pid: number; cwd: string };
    expect(result.sum).toBe(5);
    expect(result.pid).not.toBe(process.pid);
    expect(result.cwd).toBe(sessions.at(-1)?.handle?.workingDir);
    expect(tool.jsonSchema).toMatchObject({ required: ["a", "b"] });
    expect(tool.parameters.safeParse({ a: "two", b: 3 }).success).toBe(false);
  });

  it("keeps the user's console output out of the result", async () => {
    const tool = codeTool(config('export default () => { console.log("noise"); return "clean"; };'));
    expect(await call(tool, {})).toBe("clean");
  });

  it("reports what the code threw as tool_execution_exception", async () => {
    const tool = codeTool(config('export default () => { throw new RangeError("too big"); };'));
    await expect(call(tool, {})).rejects.toMatchObject({ kind: "tool_execution_exception", message: "RangeError: too big" });
  });

  it("says what it expected when the module has no default export", async () => {
    const tool = codeTool(config("export const notDefault = 1;"));
    await expect(call(tool, {})).rejects.toThrow(/expected the tool's code to 'export default' a function; found undefined/);
  });

  it("kills code that runs past its timeout", async () => {
    const tool = codeTool(config("export default () => { for (;;) {} };", { timeoutMs: 400 }));
    const error = await call(tool, {}).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ToolFailure);
    expect((error as ToolFailure).kind).toBe("timeout");
  });

  it("refuses to run without a bound workspace sandbox", async () => {
    const tool = codeTool(config("export default () => 1;"));
    const session = Session.create("user", "hi");
    const promise = tool.execute({}, { session, sandbox: null, run: { emit: () => {} }, signal: new AbortController().signal, callId: "c" });
    await expect(promise).rejects.toMatchObject({ kind: "sandbox_closed" });
  });
});
