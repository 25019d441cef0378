/**
 * The start-up upgrade of examples seeded before they carried a stored layout (before 9398b9e they were seeded with
 * `{ nodes: {} }`, and examples are seeded once, so an upgraded studio kept them so): the editor laid such an example
 * out by ELK on every open (a jump) instead of opening it in its stored layout.
 *
 * Revisions are immutable, so the layout is not written into the seeded revision: a seeded example whose head
 * revision has no position for any node and still has the template's spec gets one new revision on top of it — the
 * same spec, the template's stored layout (template-catalog `templateLayout`), the message `layoutMessage(slug)` —
 * and keeps its `updatedAt` (the home page's order is the user's, not the upgrade's). An example whose spec the user
 * edited, or that has any stored position, is left as it is. Runs inside the seeders' exclusive transaction
 * (seed-examples.ts), so two processes starting together add the layout once: the second finds it in the head.
 */
import { WorkflowLayout } from "../../runtime/workflow-spec/workflow-layout";
import type { TransactionClient } from "../db/database";
import { headRevisionIn, saveRevisionIn } from "../db/workflow-store";
import { templateLayout } from "./template-catalog";

/** The message of the revision that gives a seeded example its stored layout. */
export function layoutMessage(slug: string): string {
  return `Stored layout of the example: ${slug}`;
}

/** Whether a revision's layout places at least one node (an unreadable layout places none). */
function placesAnyNode(layout: unknown): boolean {
  const parsed = WorkflowLayout.safeParse(layout);
  return parsed.success && Object.keys(parsed.data.nodes).length > 0;
}

/**
 * Gives each seeded example without a layout its template's stored layout (see the file comment). `examples` maps a
 * slug to the workflows seeded from it; `templateHashOf` is the spec hash that slug's template resolves to in this
 * database. Returns the ids of the workflows that got a layout, in the order of `examples`.
 */
export async function addStoredLayouts(
  transaction: TransactionClient,
  examples: ReadonlyMap<string, readonly string[]>,
  templateHashOf: (slug: string) => Promise<string>,
): Promise<string[]> {
  const laidOut: string[] = [];
  for (const [slug, workflowIds] of examples) {
    for (const workflowId of workflowIds) {
      const head = await headRevisionIn(transaction, workflowId);
      if (head === null || placesAnyNode(head.layout) || head.specSha256 !== (await templateHashOf(slug))) continue;
      const { spec, specSha256, planId } = head;
      const revision = { workflowId, parentRevisionId: head.id, spec, layout: templateLayout(slug), specSha256, planId, message: layoutMessage(slug) };
      await saveRevisionIn(transaction, revision, { keepUpdatedAt: true });
      laidOut.push(workflowId);
    }
  }
  return laidOut;
}
