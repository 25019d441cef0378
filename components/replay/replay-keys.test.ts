import { describe, expect, it } from "vitest";
import { replayCommand } from "./replay-keys";

const press = (key: string, held: Partial<{ altKey: boolean; ctrlKey: boolean; metaKey: boolean }> = {}) => replayCommand({ key, altKey: false, ctrlKey: false, metaKey: false, ...held });

describe("replayCommand", () => {
  it("maps the presentation's keys", () => {
    expect(press(" ")).toEqual({ kind: "toggle" });
    expect(press("ArrowRight")).toEqual({ kind: "step", direction: 1 });
    expect(press("ArrowLeft")).toEqual({ kind: "step", direction: -1 });
    expect(press("Home")).toEqual({ kind: "start" });
    expect(press("1")).toEqual({ kind: "speed", speed: 1 });
    expect(press("4")).toEqual({ kind: "speed", speed: 4 });
    expect(press("6")).toEqual({ kind: "speed", speed: 16 });
    expect(press("f")).toEqual({ kind: "fullscreen" });
    expect(press("F")).toEqual({ kind: "fullscreen" });
  });

  it("leaves other keys, and keys with a modifier, to the browser", () => {
    expect(press("Escape")).toBeNull();
    expect(press("Tab")).toBeNull();
    expect(press("2")).toBeNull();
    expect(press("ArrowRight", { altKey: true })).toBeNull();
    expect(press("1", { ctrlKey: true })).toBeNull();
    expect(press("f", { metaKey: true })).toBeNull();
  });
});
