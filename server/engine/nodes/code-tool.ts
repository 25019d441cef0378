import { randomUUID } from "node:crypto";
import { z } from "zod";
import { parametersFromJsonSchema } from "../../../runtime/mcp/json-schema-parameters";
import { WorkspaceHandle } from "../../../runtime/sandbox/workspace-handle";
import { defineTool } from "../../../runtime/tools/define-tool";
import { ToolFailure, type Tool } from "../../../runtime/tools/types";
import type { ToolConfig } from "../../../runtime/workflow-spec/node-configs";
import { CODE_TOOL_RUNNER } from "./code-tool-runner";

/** Timeout of one code tool call when its node sets none. */
export const DEFAULT_CODE_TOOL_TIMEOUT_MS = 30_000;

/** Last characters of stderr kept in a failure's detail. */
const STDERR_TAIL = 2_000;

const RunnerReply = z.discriminatedUnion("ok", [
  z.object({ ok: z.literal(true), result: z.unknown() }),
  z.object({ ok: z.literal(false), name: z.string(), message: z.string() }),
]);

type CodeToolConfig = Extract<ToolConfig, { kind: "code" }>;

function parseReply(stdout: string, marker: string): z.infer<typeof RunnerReply> | null {
  const at = stdout.lastIndexOf(marker);
  if (at < 0) return null;
  try {
    const parsed = RunnerReply.safeParse(JSON.parse(stdout.slice(at + marker.length)));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * A user's JavaScript tool as a runtime tool: arguments are checked against its JSON schema, then its module runs
 * in a child `node` process inside the session's sandbox (workspace as current directory; no network under bwrap),
 * with the arguments on stdin and a timeout that kills the process group.
 */
export function codeTool(config: CodeToolConfig): Tool {
  return defineTool({
    name: config.name,
    description: config.description,
    parameters: parametersFromJsonSchema(config.parametersSchema),
    jsonSchema: config.parametersSchema,
    async execute(args, context) {
      const sandbox = context.sandbox;
      if (!(sandbox instanceof WorkspaceHandle)) {
        throw new ToolFailure("sandbox_closed", `code tool '${config.name}' needs a bound workspace sandbox; found ${sandbox ? `backend '${sandbox.backend}' without workspace operations` : "none"}`);
      }
      const marker = `\n@@rath-result-${randomUUID()}@@`;
      const result = await sandbox.exec(["node", "--input-type=module", "-e", CODE_TOOL_RUNNER], {
        stdin: JSON.stringify({ code: config.code, args }),
        env: { RATH_RESULT_MARKER: marker },
        timeoutMs: config.timeoutMs ?? DEFAULT_CODE_TOOL_TIMEOUT_MS,
        signal: context.signal,
        outputLimitBytes: 1024 * 1024,
      });
      const reply = parseReply(result.stdout, marker);
      const stderr = result.stderr.slice(-STDERR_TAIL);
      if (!reply) {
        throw new ToolFailure("tool_execution_exception", `code tool '${config.name}' exited with code ${String(result.exitCode)} without a result`, { stderr });
      }
      if (!reply.ok) throw new ToolFailure("tool_execution_exception", `${reply.name}: ${reply.message}`, { stderr });
      return reply.result;
    },
  });
}
