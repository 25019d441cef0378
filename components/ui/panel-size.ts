/** Pure rules for resizable panels: clamping, keyboard steps and reading a stored size. */

/** The limits of one panel, in pixels. */
export interface PanelLimits {
  readonly initial: number;
  readonly min: number;
  readonly max: number;
}

/** `size` kept inside the limits (rounded to whole pixels). */
export function clampPanelSize(size: number, limits: PanelLimits): number {
  if (!Number.isFinite(size)) return limits.initial;
  return Math.round(Math.min(limits.max, Math.max(limits.min, size)));
}

/** A stored size, or the initial size when nothing valid is stored. */
export function parseStoredPanelSize(stored: string | null, limits: PanelLimits): number {
  if (stored === null) return limits.initial;
  const value = Number(stored);
  return Number.isFinite(value) ? clampPanelSize(value, limits) : limits.initial;
}

/** The size after a key press on the handle, or undefined for keys it ignores. `grow` is +1 or -1. */
export function panelSizeAfterKey(size: number, key: string, grow: 1 | -1, limits: PanelLimits, large: boolean): number | undefined {
  const step = large ? 64 : 16;
  switch (key) {
    case "ArrowLeft":
    case "ArrowUp":
      return clampPanelSize(size - step * grow, limits);
    case "ArrowRight":
    case "ArrowDown":
      return clampPanelSize(size + step * grow, limits);
    case "Home":
      return limits.min;
    case "End":
      return limits.max;
    default:
      return undefined;
  }
}
