import { describe, expect, it } from "vitest";
import { glideDuration, paddingCache } from "./use-graph-framing";

const PADDING = { top: "40px", right: "40px", bottom: "90px", left: "40px" } as const;

describe("graph framing", () => {
  it("measures the fit padding once per pane size, and again when the pane changes size", () => {
    let measured = 0;
    const padded = paddingCache(() => {
      measured += 1;
      return { padding: PADDING, found: true };
    });
    const container = {} as HTMLElement;
    expect(padded(container, { width: 500, height: 400 })).toBe(PADDING);
    padded(container, { width: 500, height: 400 });
    padded(container, { width: 500, height: 400 });
    expect(measured).toBe(1);
    padded(container, { width: 520, height: 400 });
    expect(measured).toBe(2);
  });

  it("measures again while no overlay was there to measure (the controls not mounted yet)", () => {
    let found = false;
    let measured = 0;
    const padded = paddingCache(() => {
      measured += 1;
      return { padding: PADDING, found };
    });
    const container = {} as HTMLElement;
    padded(container, { width: 500, height: 400 });
    padded(container, { width: 500, height: 400 });
    expect(measured).toBe(2);
    found = true;
    padded(container, { width: 500, height: 400 });
    padded(container, { width: 500, height: 400 });
    expect(measured).toBe(3);
  });

  it("glides a move after a pause, and sets moves that follow each other closely at once", () => {
    expect(glideDuration(1000, null)).toBe(200);
    expect(glideDuration(5000, 1000)).toBe(200);
    expect(glideDuration(1130, 1000)).toBeUndefined();
    expect(glideDuration(1999, 1000)).toBeUndefined();
    expect(glideDuration(2000, 1000)).toBe(200);
  });
});
