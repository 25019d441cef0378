import { z } from "zod";
import { defineTool } from "../define-tool";
import { BUILTIN_OUTPUT_LIMIT_BYTES, requireWorkspace } from "./workspace";

/** Longest command line the model may send. */
export const MAX_COMMAND_LENGTH = 2048;

/** Arguments of `run_shell_command`. */
export const RunShellCommandArguments = z.object({
  cmd: z
    .string()
    .min(1, "cmd must not be empty")
    .max(MAX_COMMAND_LENGTH, `cmd must be at most ${MAX_COMMAND_LENGTH} characters`)
    .refine((value) => !/[\r\n]/.test(value), "cmd must be a single line (no newline characters)")
    .describe("Shell command string"),
});

/** Built-in: runs one shell command line in the session's sandbox workspace (`{exit_code, stdout, stderr, elapsed_ms}`). */
export const runShellCommand = defineTool({
  name: "run_shell_command",
  description: "Run one shell command inside the active sandbox workspace. Prefer short commands such as `echo Hello`.",
  parameters: RunShellCommandArguments,
  parallelSafe: false,
  resourceKey: () => "exec",
  async execute({ cmd }, context) {
    const result = await requireWorkspace(context).exec(cmd, { signal: context.signal, outputLimitBytes: BUILTIN_OUTPUT_LIMIT_BYTES });
    return {
      exit_code: result.exitCode,
      stdout: result.stdout,
      stderr: result.stderr,
      elapsed_ms: Math.round(result.elapsedMs),
      ...(result.truncated ? { truncated: true } : {}),
    };
  },
});
