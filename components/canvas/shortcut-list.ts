/** The editor's keyboard shortcuts, as the help dialog (`?`) and the command palette list them. */

/** One shortcut: the keys (Mod = Ctrl, or ⌘ on a Mac) and what it does. */
export interface Shortcut {
  readonly keys: readonly string[];
  readonly action: string;
}

/** Every shortcut, grouped. */
export const SHORTCUTS: readonly { group: string; items: readonly Shortcut[] }[] = [
  {
    group: "Editing",
    items: [
      { keys: ["Mod", "Z"], action: "Undo" },
      { keys: ["Mod", "Shift", "Z"], action: "Redo (also Mod+Y)" },
      { keys: ["Mod", "C"], action: "Copy selected nodes as spec JSON" },
      { keys: ["Mod", "X"], action: "Cut selected nodes" },
      { keys: ["Mod", "V"], action: "Paste nodes (also from another workflow)" },
      { keys: ["Mod", "D"], action: "Duplicate selected nodes" },
      { keys: ["Delete"], action: "Delete selected nodes and wires (also Backspace)" },
      { keys: ["Mod", "A"], action: "Select all nodes" },
      { keys: ["Esc"], action: "Clear the selection" },
      { keys: ["Arrows"], action: "Nudge selected nodes (Shift: 10×)" },
    ],
  },
  {
    group: "Canvas",
    items: [
      { keys: ["Mod", "K"], action: "Command palette: add a node, jump to a node, run an action" },
      { keys: ["Shift", "L"], action: "Auto-layout (ELK)" },
      { keys: ["Shift", "1"], action: "Fit the view" },
      { keys: ["Shift", "Drag"], action: "Box-select" },
      { keys: ["Mod", "Click"], action: "Add to the selection" },
      { keys: ["Space", "Drag"], action: "Pan (or drag the background)" },
    ],
  },
  {
    group: "Workflow",
    items: [
      { keys: ["Mod", "S"], action: "Save as a new revision" },
      { keys: ["Mod", "Enter"], action: "Run" },
      { keys: ["?"], action: "This list" },
    ],
  },
];

/** Whether the platform's modifier is ⌘. */
export function isMac(platform: string): boolean {
  return /Mac|iPhone|iPad/.test(platform);
}

/** A key as shown on this platform. */
export function keyLabel(key: string, mac: boolean): string {
  if (key === "Mod") return mac ? "⌘" : "Ctrl";
  if (key === "Shift") return mac ? "⇧" : "Shift";
  return key;
}
