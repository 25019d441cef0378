/**
 * The stored layout of every example: the positions the editor's Auto-layout gives the example when it is opened
 * without any (components/canvas/auto-layout.ts, ELK with the default node size), computed once and kept in
 * layouts.json, so a seeded template opens in its final layout at once instead of a grid that jumps. ELK's layered
 * algorithm is deterministic: the same spec always gives the same positions (layouts.test.ts holds them to it).
 */
import { autoLayout } from "../../../../../components/canvas/auto-layout";
import { documentFromSpec } from "../../../../../components/canvas/canvas-document";
import { inlineEngine } from "../../../../../components/graph-layout/layout-engine";
import type { WorkflowLayout } from "../../../../../runtime/workflow-spec/workflow-layout";
import { EXAMPLE_SPECS } from "../index";

/** Every example's layout by slug, in slug order, as Auto-layout computes it. */
export async function computeExampleLayouts(): Promise<Record<string, WorkflowLayout>> {
  const engine = inlineEngine();
  const layouts: Record<string, WorkflowLayout> = {};
  for (const slug of Object.keys(EXAMPLE_SPECS).sort()) {
    const { positions } = await autoLayout(engine, documentFromSpec(EXAMPLE_SPECS[slug], null, slug), () => undefined);
    layouts[slug] = { nodes: positions };
  }
  return layouts;
}
