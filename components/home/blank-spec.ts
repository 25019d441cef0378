/** The spec of a new blank workflow: an Input wired to an Output, valid and runnable, ready for the editor. */

/** The provider (and its model) a new workflow runs on. */
export interface RunsOnChoice {
  provider: string;
  model: string;
}

/** The default: the scripted demo provider, offline. */
export const DEMO_RUNS_ON: RunsOnChoice = { provider: "scripted", model: "scripted-1" };

/** A fresh blank spec named `name`, running on `runsOn`. */
export function blankSpec(name: string, runsOn: RunsOnChoice = DEMO_RUNS_ON): unknown {
  return {
    version: 1,
    name,
    description: "",
    settings: { defaultProvider: runsOn.provider, defaultModel: runsOn.model },
    nodes: [
      { id: "input", type: "input", label: "Input", config: { defaultText: "" } },
      { id: "output", type: "output", label: "Output", config: {} },
    ],
    edges: [{ id: "e-input-output", source: "input", sourcePort: "out", target: "output", targetPort: "in" }],
  };
}
