/**
 * The text tokens of app/globals.css meet WCAG AA (4.5:1 for normal text) on every surface they are used on, in
 * the light theme and the dark one. Read from the stylesheet itself, so changing a colour there is checked here.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const CSS = readFileSync(path.join(process.cwd(), "app", "globals.css"), "utf8");

/** The `--rath-*` variables of the block that starts with `selector {`. */
function tokens(selector: string): Record<string, string> {
  const start = CSS.indexOf(`${selector} {`);
  const block = CSS.slice(start, CSS.indexOf("}", start));
  return Object.fromEntries([...block.matchAll(/--rath-([a-z-]+):\s*(#[0-9a-f]{6});/gi)].map((match) => [match[1] as string, (match[2] as string).toLowerCase()]));
}

function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((offset) => {
    const channel = Number.parseInt(hex.slice(offset, offset + 2), 16) / 255;
    return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG contrast ratio of two colours. */
function contrast(foreground: string, background: string): number {
  const [light, dark] = [luminance(foreground), luminance(background)].sort((a, b) => b - a) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

const TEXT = ["ink", "muted", "faint"];
const SURFACES = ["canvas", "surface", "raised", "sunken", "accent-soft"];

describe("text colour tokens", () => {
  it("computes contrast as WCAG does", () => {
    expect(contrast("#000000", "#ffffff")).toBeCloseTo(21, 5);
    expect(contrast("#777777", "#ffffff")).toBeCloseTo(4.48, 2);
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
