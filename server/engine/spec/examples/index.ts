import approval from "./approval.json";
import approvedFileWrite from "./approved-file-write.json";
import forkMergeResearch from "./fork-merge-research.json";
import helloAgent from "./hello-agent.json";
import layouts from "./layouts/layouts.json";
import longConversationCompressor from "./long-conversation-compressor.json";
import mcpFiles from "./mcp-files.json";
import memoryNotes from "./memory-notes.json";
import selectorLoop from "./selector-loop.json";
import subworkflowBrief from "./subworkflow-brief.json";
import summarizer from "./summarizer.json";
import supportTriage from "./support-triage.json";

/**
 * The example specs that seed the IDE and `rath run`, by slug (unparsed JSON; validate before use). Some hold
 * machine placeholders (`template:<slug>`, `${node}`, `${mcp:…}`, `${files}`) that server/services/template-catalog.ts
 * resolves when a template becomes a workflow.
 */
export const EXAMPLE_SPECS: Readonly<Record<string, unknown>> = {
  "hello-agent": helloAgent,
  "fork-merge-research": forkMergeResearch,
  "selector-loop": selectorLoop,
  "support-triage": supportTriage,
  approval,
  "memory-notes": memoryNotes,
  "long-conversation-compressor": longConversationCompressor,
  "approved-file-write": approvedFileWrite,
  "mcp-files": mcpFiles,
  summarizer,
  "subworkflow-brief": subworkflowBrief,
};

/**
 * Each example's stored canvas layout, by slug: Auto-layout's positions, computed by layouts/compute-layouts.ts
 * (`npm run examples:layouts`), so a seeded template opens in its final layout at once.
 */
export const EXAMPLE_LAYOUTS: Readonly<Record<string, { nodes: Record<string, { x: number; y: number }> }>> = layouts;
