import { z } from "zod";
import { defineTool } from "../define-tool";
import { pathOptions, pathResourceKey, requireWorkspace } from "./workspace";

/** Arguments of `workspace_path_exists`. */
export const WorkspacePathExistsArguments = z.object({ path: z.string().min(1, "path must not be empty") });

/** Built-in: whether a workspace path exists (`{ok: boolean}`, the reference's shape for boolean results). */
export const workspacePathExists = defineTool({
  name: "workspace_path_exists",
  description: "Return whether a path exists inside the sandbox workspace.",
  parameters: WorkspacePathExistsArguments,
  parallelSafe: true,
  idempotent: true,
  resourceKey: (args) => pathResourceKey(args.path),
  async execute(args, context) {
    return { ok: await requireWorkspace(context).exists(args.path, pathOptions(context)) };
  },
});
