import approval from "./approval.json";
import forkMergeResearch from "./fork-merge-research.json";
import helloAgent from "./hello-agent.json";
import memoryNotes from "./memory-notes.json";
import selectorLoop from "./selector-loop.json";

/** The example specs that seed the IDE and `rath run`, by slug (unparsed JSON; validate before use). */
export const EXAMPLE_SPECS: Readonly<Record<string, unknown>> = {
  "hello-agent": helloAgent,
  "fork-merge-research": forkMergeResearch,
  "selector-loop": selectorLoop,
  approval,
  "memory-notes": memoryNotes,
};
