/**
 * Pure: the `edits` of a `runs.forkFrom` request from the fork dialog's draft — only what differs from the recorded
 * values is sent, so an untouched field never turns into an edit (and an untouched prompt adds no revision).
 */

/** The preview values the draft is compared with (`runs.forkPreview`). */
export interface ForkDefaults {
  input: string | null;
  nextAgent: { instructions: string; model: string | null } | null;
  toolResults: ReadonlyArray<{ chunkIndex: number; content: string }>;
  revisions: ReadonlyArray<{ id: string; current: boolean }>;
}

/** What the person typed or chose (null: left as recorded). */
export interface ForkDraft {
  input: string | null;
  instructions: string | null;
  model: string | null;
  /** Chunk index -> new content. */
  toolResults: Readonly<Record<number, string>>;
  revisionId: string | null;
}

/** The edits object of `runs.forkFrom`. */
export interface ForkEditsInput {
  input?: string;
  agent?: { instructions?: string; model?: string };
  toolResults?: Array<{ chunkIndex: number; content: string }>;
  revisionId?: string;
}

/** The edits that differ from the defaults. */
export function buildForkEdits(defaults: ForkDefaults, draft: ForkDraft): ForkEditsInput {
  const edits: ForkEditsInput = {};
  if (draft.input !== null && defaults.input !== null && draft.input !== defaults.input) edits.input = draft.input;
  const agent = defaults.nextAgent;
  if (agent !== null) {
    const changed: { instructions?: string; model?: string } = {};
    if (draft.instructions !== null && draft.instructions !== agent.instructions) changed.instructions = draft.instructions;
    const model = draft.model?.trim() ?? null;
    if (model !== null && model !== "" && model !== (agent.model ?? "")) changed.model = model;
    if (Object.keys(changed).length > 0) edits.agent = changed;
  }
  const toolResults = defaults.toolResults
    .filter((result) => draft.toolResults[result.chunkIndex] !== undefined && draft.toolResults[result.chunkIndex] !== result.content)
    .map((result) => ({ chunkIndex: result.chunkIndex, content: draft.toolResults[result.chunkIndex] as string }));
  if (toolResults.length > 0) edits.toolResults = toolResults;
  const current = defaults.revisions.find((revision) => revision.current)?.id ?? null;
  if (draft.revisionId !== null && draft.revisionId !== current) edits.revisionId = draft.revisionId;
  return edits;
}

/**
 * The draft after another revision is picked: the prompt and model fields follow the picked revision's next agent
 * (the preview is re-read for it), so an edit typed for the previous revision is dropped; the rest is kept.
 */
export function pickRevision(draft: ForkDraft, revisionId: string): ForkDraft {
  return { ...draft, revisionId, instructions: null, model: null };
}
