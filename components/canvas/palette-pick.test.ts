import { describe, expect, it } from "vitest";
import { pickEntry } from "./palette-pick";

const entries = [
  { value: "action Save", disabled: false },
  { value: "action Run", disabled: true },
  { value: "add Selector The model picks the next step", disabled: false },
  { value: "add Tool Built-in, custom code or MCP tools", disabled: false },
  { value: "go Shell tool shell", disabled: false },
];

describe("pickEntry", () => {
  it("runs the best match for the text typed so far, whatever cmdk still highlights", () => {
    const stale = { value: "add Selector The model picks the next step", chosenFor: null };
    expect(pickEntry(entries, "shell", stale)?.value).toBe("go Shell tool shell");
    expect(pickEntry(entries, "add tool", stale)?.value).toBe("add Tool Built-in, custom code or MCP tools");
  });

  it("keeps a highlight the user moved to for this very text, not one chosen for an earlier prefix", () => {
    const chosen = { value: "add Tool Built-in, custom code or MCP tools", chosenFor: "s" };
    expect(pickEntry(entries, "s", chosen)?.value).toBe("add Tool Built-in, custom code or MCP tools");
    expect(pickEntry(entries, "shell", chosen)?.value).toBe("go Shell tool shell");
  });

  it("skips disabled rows and answers nothing when nothing matches", () => {
    expect(pickEntry(entries, "run", { value: "action Run", chosenFor: "run" })?.value).not.toBe("action Run");
    expect(pickEntry(entries, "", { value: undefined, chosenFor: null })?.value).toBe("action Save");
    expect(pickEntry(entries, "zzzz", { value: undefined, chosenFor: null })).toBeUndefined();
  });
});
