import { z } from "zod";
import { defineTool } from "../define-tool";
import { pathOptions, pathResourceKey, requireWorkspace } from "./workspace";

/** Text longer than this is cut and marked `...(truncated)`, as the reference does. */
export const MAX_READ_CHARS = 12_000;

const ENCODINGS = ["utf-8", "utf8", "ascii", "latin1", "binary", "utf16le", "utf-16le", "ucs2", "base64", "base64url", "hex"] as const;

/** Arguments of `read_workspace_file`; `encoding` null reads bytes and decodes them leniently as UTF-8. */
export const ReadWorkspaceFileArguments = z.object({
  path: z.string().min(1, "path must not be empty"),
  encoding: z
    .string()
    .transform((value) => value.toLowerCase())
    .pipe(z.enum(ENCODINGS, { message: `encoding must be one of ${ENCODINGS.join(", ")}` }))
    .nullable()
    .default("utf-8")
    .describe("Text encoding; null for binary"),
});

function nodeEncoding(encoding: (typeof ENCODINGS)[number] | null): BufferEncoding {
  if (encoding === null || encoding === "utf-8") return "utf8";
  if (encoding === "utf-16le") return "utf16le";
  return encoding;
}

/** Built-in: reads a file from the workspace (`{data}`). */
export const readWorkspaceFile = defineTool({
  name: "read_workspace_file",
  description: "Read a file from the sandbox workspace. Omit encoding or set null to return raw bytes.",
  parameters: ReadWorkspaceFileArguments,
  parallelSafe: true,
  idempotent: true,
  resourceKey: (args) => pathResourceKey(args.path),
  async execute(args, context) {
    const bytes = await requireWorkspace(context).readFile(args.path, pathOptions(context));
    const text = bytes.toString(nodeEncoding(args.encoding));
    return { data: text.length > MAX_READ_CHARS ? `${text.slice(0, MAX_READ_CHARS)}...(truncated)` : text };
  },
});
