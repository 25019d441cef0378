import { z } from "zod";
import { defineTool } from "../define-tool";
import { pathOptions, pathResourceKey, requireWorkspace } from "./workspace";

/** At most this many entries are returned, as the reference does. */
export const MAX_LIST_ENTRIES = 500;

/** Arguments of `list_workspace_files`. */
export const ListWorkspaceFilesArguments = z.object({ path: z.string().min(1, "path must not be empty") });

/** Built-in: lists a workspace directory, not recursively (`{entries: [{name, path, is_dir}]}`, paths relative). */
export const listWorkspaceFiles = defineTool({
  name: "list_workspace_files",
  description: "List non-recursive directory entries under a sandbox path.",
  parameters: ListWorkspaceFilesArguments,
  parallelSafe: true,
  idempotent: true,
  resourceKey: (args) => pathResourceKey(args.path),
  async execute(args, context) {
    const entries = await requireWorkspace(context).list(args.path, pathOptions(context));
    return { entries: entries.slice(0, MAX_LIST_ENTRIES) };
  },
});
