/** The spec of a new blank workflow: an Input wired to an Output, valid and runnable, ready for the editor. */

/** A fresh blank spec named `name`. */
export function blankSpec(name: string): unknown {
  return {
    version: 1,
    name,
    description: "",
    settings: { defaultProvider: "scripted", defaultModel: "scripted-1" },
    nodes: [
      { id: "input", type: "input", label: "Input", config: { defaultText: "" } },
      { id: "output", type: "output", label: "Output", config: {} },
    ],
    edges: [{ id: "e-input-output", source: "input", sourcePort: "out", target: "output", targetPort: "in" }],
  };
}
