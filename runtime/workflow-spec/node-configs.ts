import { z } from "zod";
import { McpServerConfig } from "../mcp/server-config";
import { parseMemoryUri } from "../memory/memory-uri";
import { ToolPolicy } from "../tools/policy";

/** A model-visible tool name: the characters every provider accepts. */
export const ToolName = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,64}$/, "a tool name is 1-64 letters, digits, '_' or '-'");

/** Provider and model names; both may be left out when the workflow settings give defaults. */
const ModelChoice = {
  provider: z.string().optional(),
  model: z.string().optional(),
};

/** Input: where the run's input text enters as a `user` session. */
export const InputConfig = z.object({
  /** Text used when a run is started without input (the IDE's "Run" button). */
  defaultText: z.string().optional(),
});
export type InputConfig = z.infer<typeof InputConfig>;

/** Agent: the runtime agent loop with the tools and memory wired to its `tools` and `memory` ports. */
export const AgentConfig = z.object({
  name: z.string().min(1),
  instructions: z.string(),
  ...ModelChoice,
  maxRounds: z.number().int().positive().optional(),
  /** Built-in tools enabled without drawing a Tool node, by name. */
  builtins: z.array(z.string()).optional(),
  /** The runtime tool policy (allowed tools, filesystem roots, command rules, maximum calls). */
  policy: ToolPolicy.optional(),
});
export type AgentConfig = z.infer<typeof AgentConfig>;

/** A JSON schema given by the user for a code tool's arguments. */
export const JsonSchemaObject = z.record(z.string(), z.unknown());

/** Tool: a built-in by name, a user's JavaScript function, or the tools of an MCP server. */
export const ToolConfig = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("builtin"), name: z.string().min(1) }),
  z.object({
    kind: z.literal("code"),
    name: ToolName,
    description: z.string(),
    parametersSchema: JsonSchemaObject,
    /**
     * An ES module whose default export is `(args) => result` (sync or async); it runs in a child `node` process in
     * the session's sandbox and may import Node built-ins (`node:fs`), not npm packages or relative files.
     */
    code: z.string().min(1),
    timeoutMs: z.number().int().positive().optional(),
  }),
  z.object({
    kind: z.literal("mcp"),
    server: McpServerConfig,
    /** Names (as the server lists them) of the tools to expose; all when absent. */
    tools: z.array(z.string().min(1)).optional(),
  }),
]);
export type ToolConfig = z.infer<typeof ToolConfig>;

/** Selector: one completion picks the next node among the targets of its `out` edges, or `done` on -1. */
export const SelectorConfig = z.object({
  instructions: z.string(),
  ...ModelChoice,
});
export type SelectorConfig = z.infer<typeof SelectorConfig>;

/** Fork: one `session.fork()` per outgoing edge; `branches`, when given, must equal the number of edges. */
export const ForkConfig = z.object({ branches: z.number().int().min(1).optional() });
export type ForkConfig = z.infer<typeof ForkConfig>;

/** Merge: waits for every incoming edge, then merges the sessions in edge order. */
export const MergeConfig = z.object({});
export type MergeConfig = z.infer<typeof MergeConfig>;

/** Compressor: one completion summarises the session into one `user` chunk. */
export const CompressorConfig = z.object({
  ...ModelChoice,
  instructions: z.string().optional(),
});
export type CompressorConfig = z.infer<typeof CompressorConfig>;

/** Memory scopes of SPEC §5. */
export const MemoryScope = z.enum(["user", "agent", "session", "resources"]);
export type MemoryScope = z.infer<typeof MemoryScope>;

/** A memory document URI (`memory://{scope}/...`, no `.`/`..`/empty segments). */
const MemoryDocumentUri = z.string().superRefine((uri, context) => {
  try {
    parseMemoryUri(uri);
  } catch (error) {
    context.addIssue({ code: "custom", message: error instanceof Error ? error.message : String(error) });
  }
});

/**
 * Memory: a store attached to agents; recall before the loop, remember the answer and commit after it. The
 * engine keeps one store per workflow and store name in its database (BM25 recall, as the runtime's local store).
 */
export const MemoryConfig = z.object({
  /** Store name; agents whose Memory nodes name the same store share it. */
  store: z.string().min(1),
  /** Where recall searches: a scope (commits are stored under `session`). */
  scope: MemoryScope,
  recall: z.boolean(),
  commit: z.boolean(),
  topK: z.number().int().positive().optional(),
  /** After the loop, store the agent's answer at this URI (replacing what was there). */
  remember: MemoryDocumentUri.optional(),
});
export type MemoryConfig = z.infer<typeof MemoryConfig>;

/** Approval: suspends the run until a person approves, edits, rejects or responds. */
export const ApprovalConfig = z.object({
  prompt: z.string().min(1),
  allowEdit: z.boolean().optional(),
  /** How long a decision may take (ms from the interrupt's creation); past it the waiting run is `timed_out`. */
  timeoutMs: z.number().int().positive().optional(),
});
export type ApprovalConfig = z.infer<typeof ApprovalConfig>;

/** Sub-workflow: runs another saved workflow (its latest or a pinned revision) on the session. */
export const SubworkflowConfig = z.object({
  workflowId: z.string().min(1),
  revisionId: z.string().min(1).optional(),
});
export type SubworkflowConfig = z.infer<typeof SubworkflowConfig>;

/** Output: marks the session that reaches it as a final result of the run. */
export const OutputConfig = z.object({});
export type OutputConfig = z.infer<typeof OutputConfig>;
