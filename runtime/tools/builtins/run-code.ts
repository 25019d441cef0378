import { z } from "zod";
import { defineTool } from "../define-tool";
import { ToolFailure } from "../types";
import { BUILTIN_OUTPUT_LIMIT_BYTES, requireWorkspace } from "./workspace";

/** Longest timeout a call may ask for, in seconds. */
export const MAX_CODE_TIMEOUT_SECONDS = 600;

/** Interpreters by language name; the code is fed on standard input, so no file is left in the workspace. */
const INTERPRETERS: Record<string, readonly string[]> = {
  python: ["python3", "-"],
  python3: ["python3", "-"],
  py: ["python3", "-"],
  javascript: ["node", "--input-type=commonjs", "-"],
  js: ["node", "--input-type=commonjs", "-"],
  node: ["node", "--input-type=commonjs", "-"],
  nodejs: ["node", "--input-type=commonjs", "-"],
  bash: ["bash", "-s"],
  sh: ["/bin/sh", "-s"],
  shell: ["bash", "-s"],
};

/** Language names `run_code` accepts. */
export const RUN_CODE_LANGUAGES = Object.keys(INTERPRETERS);

/** Arguments of `run_code`; `timeout` is in seconds. */
export const RunCodeArguments = z.object({
  code: z.string(),
  language: z.string().default("python").describe("Interpreter language: python, javascript (node) or bash"),
  timeout: z.number().positive().max(MAX_CODE_TIMEOUT_SECONDS).nullable().optional().describe("Optional timeout in seconds"),
});

/** Built-in: runs a snippet with an interpreter in the sandbox (`{text, stdout, stderr, error}`). */
export const runCode = defineTool({
  name: "run_code",
  description: "Execute a code snippet inside the sandbox code interpreter (default language: python; also javascript and bash).",
  parameters: RunCodeArguments,
  parallelSafe: false,
  resourceKey: () => "code",
  async execute(args, context) {
    const interpreter = INTERPRETERS[args.language.toLowerCase()];
    if (!interpreter) {
      throw new ToolFailure("unsupported_tool", `unsupported language '${args.language}'; expected one of ${RUN_CODE_LANGUAGES.join(", ")}`, args.language);
    }
    const result = await requireWorkspace(context).exec(interpreter, {
      stdin: args.code,
      timeoutMs: args.timeout ? args.timeout * 1000 : undefined,
      signal: context.signal,
      outputLimitBytes: BUILTIN_OUTPUT_LIMIT_BYTES,
    });
    const failed = result.exitCode !== 0;
    return {
      text: null,
      stdout: result.stdout,
      stderr: result.stderr,
      error: failed ? result.stderr || `exit code ${String(result.exitCode)}` : null,
      ...(result.truncated ? { truncated: true } : {}),
    };
  },
});
