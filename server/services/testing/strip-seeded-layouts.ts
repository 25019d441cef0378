/** Test fixture: a database as a studio before 9398b9e left it, where the examples' seeded revisions have no layout. */
import type { Database } from "../../db/database";

/** Empties the layout of every revision (what the seeder wrote before the examples carried a stored layout). */
export async function stripSeededLayouts(database: Database): Promise<void> {
  await database.client.workflowRevision.updateMany({ data: { layout: JSON.stringify({ nodes: {} }) } });
}
