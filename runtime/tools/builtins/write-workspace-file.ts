import { z } from "zod";
import { defineTool } from "../define-tool";
import { pathOptions, pathResourceKey, requireWorkspace } from "./workspace";

/** Arguments of `write_workspace_file`. */
export const WriteWorkspaceFileArguments = z.object({
  path: z.string().min(1, "path must not be empty"),
  content: z.string(),
});

/** Built-in: writes UTF-8 text to a workspace path, creating parent directories (`{bytes_written}`). */
export const writeWorkspaceFile = defineTool({
  name: "write_workspace_file",
  description: "Write UTF-8 text to a path inside the sandbox workspace.",
  parameters: WriteWorkspaceFileArguments,
  parallelSafe: true,
  idempotent: true,
  resourceKey: (args) => pathResourceKey(args.path),
  async execute(args, context) {
    const { bytesWritten } = await requireWorkspace(context).writeFile(args.path, args.content, pathOptions(context));
    return { bytes_written: bytesWritten };
  },
});
