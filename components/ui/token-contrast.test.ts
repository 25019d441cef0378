/**
 * The text tokens of app/globals.css meet WCAG AA (4.5:1 for normal text) on every surface they are used on, and a
 * canvas node's edge (`node-line`) 3:1 (non-text contrast) against the canvas around it and the node's surface, in
 * the light theme and the dark one. Read from the stylesheet itself, so changing a colour there is checked here.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { contrastRatio as contrast } from "./contrast-ratio";

const CSS = readFileSync(path.join(process.cwd(), "app", "globals.css"), "utf8");

/** The `--rath-*` variables of the block that starts with `selector {`. */
function tokens(selector: string): Record<string, string> {
  const start = CSS.indexOf(`${selector} {`);
  const block = CSS.slice(start, CSS.indexOf("}", start));
  return Object.fromEntries([...block.matchAll(/--rath-([a-z-]+):\s*(#[0-9a-f]{6});/gi)].map((match) => [match[1] as string, (match[2] as string).toLowerCase()]));
}

const TEXT = ["ink", "muted", "faint"];
const SURFACES = ["canvas", "surface", "raised", "sunken", "accent-soft"];

describe("text colour tokens", () => {
  it("computes contrast as WCAG does", () => {
    expect(contrast("#000000", "#ffffff")).toBeCloseTo(21, 5);
    expect(contrast("#777777", "#ffffff")).toBeCloseTo(4.48, 2);
    expect(contrast("rgb(119, 119, 119)", "rgba(255, 255, 255, 1)")).toBeCloseTo(4.48, 2);
  });

  for (const [theme, selector] of [
    ["light", ":root"],
    ["dark", ".dark"],
  ] as const) {
    it(`reach 4.5:1 on every surface in the ${theme} theme`, () => {
      const palette = tokens(selector);
      const failures: string[] = [];
      for (const text of TEXT) {
        for (const surface of SURFACES) {
          const foreground = palette[text];
          const background = palette[surface];
          expect(foreground, `--rath-${text} in ${selector}`).toBeDefined();
          expect(background, `--rath-${surface} in ${selector}`).toBeDefined();
          const ratio = contrast(foreground as string, background as string);
          if (ratio < 4.5) failures.push(`${text} on ${surface}: ${ratio.toFixed(2)}`);
        }
      }
      expect(failures).toEqual([]);
    });
  }
});

describe("the canvas node's edge", () => {
  for (const [theme, selector] of [
    ["light", ":root"],
    ["dark", ".dark"],
  ] as const) {
    it(`reaches 3:1 against the canvas and a node's surface in the ${theme} theme`, () => {
      const palette = tokens(selector);
      expect(palette["node-line"], `--rath-node-line in ${selector}`).toBeDefined();
      for (const surface of ["canvas", "surface"]) {
        expect(contrast(palette["node-line"] as string, palette[surface] as string), `node-line on ${surface}`).toBeGreaterThanOrEqual(3);
      }
    });
  }
});
