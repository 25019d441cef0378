/**
 * WCAG contrast of two colours, each `#rrggbb` or a computed CSS `rgb(r, g, b)` / `rgba(…)` (alpha ignored): read
 * from the stylesheet by the token tests and from the drawn page by the e2e specs.
 */

function channels(colour: string): [number, number, number] {
  const hex = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(colour.trim());
  const rgb = /^rgba?\(\s*([\d.]+)[\s,]+([\d.]+)[\s,]+([\d.]+)/i.exec(colour.trim());
  const parts = hex !== null ? hex.slice(1).map((part) => Number.parseInt(part, 16)) : rgb !== null ? rgb.slice(1).map(Number) : null;
  if (parts === null) throw new Error(`not a #rrggbb or rgb() colour: ${colour}`);
  return parts as [number, number, number];
}

/** WCAG relative luminance. */
export function relativeLuminance(colour: string): number {
  const [r, g, b] = channels(colour).map((value) => {
    const channel = value / 255;
    return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG contrast ratio of two colours (1 to 21). */
export function contrastRatio(foreground: string, background: string): number {
  const [light, dark] = [relativeLuminance(foreground), relativeLuminance(background)].sort((a, b) => b - a) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}
