/**
 * The local draft: unsaved edits are kept in localStorage (per workflow) so a crashed or closed tab loses
 * nothing; the editor offers them back on the next open. Pure read/write with a schema check on read.
 */
import { z } from "zod";

const Draft = z.object({
  version: z.literal(1),
  baseRevisionId: z.string().nullable(),
  spec: z.unknown(),
  layout: z.unknown(),
  savedAt: z.string(),
});
/** A stored draft. */
export type Draft = z.infer<typeof Draft>;

/** The storage key of a workflow's draft. */
export function draftKey(workflowId: string): string {
  return `rath-draft:${workflowId}`;
}

/** The stored draft, or null (none, unreadable, or storage unavailable). */
export function readDraft(storage: Pick<Storage, "getItem">, workflowId: string): Draft | null {
  try {
    const text = storage.getItem(draftKey(workflowId));
    if (text === null) return null;
    const parsed = Draft.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Stores a draft (quietly does nothing when storage is full or unavailable). */
export function writeDraft(storage: Pick<Storage, "setItem">, workflowId: string, draft: Omit<Draft, "version">): void {
  try {
    storage.setItem(draftKey(workflowId), JSON.stringify({ version: 1, ...draft }));
  } catch {
    // Storage full or blocked: the draft is best effort.
  }
}

/** Removes a workflow's draft. */
export function clearDraft(storage: Pick<Storage, "removeItem">, workflowId: string): void {
  try {
    storage.removeItem(draftKey(workflowId));
  } catch {
    // Nothing to do.
  }
}
