/**
 * Pure: what a key does in the replay presentation. Space pause/resume, → / ← one event, Home back to the start,
 * 1 / 4 / 6 speed 1× / 4× / 16×, F full screen on or off. Esc (leave) is the dialog's own cancel, not listed here.
 * A key with Alt, Ctrl or Meta held belongs to the browser.
 */
import type { ReplaySpeed } from "./replay-clock";

/** A replay command. */
export type ReplayCommand =
  | { kind: "toggle" }
  | { kind: "step"; direction: 1 | -1 }
  | { kind: "start" }
  | { kind: "speed"; speed: ReplaySpeed }
  | { kind: "fullscreen" };

const SPEED_KEYS: Readonly<Record<string, ReplaySpeed>> = { "1": 1, "4": 4, "6": 16 };

/** The command of a key press, or null when the replay leaves the key alone. */
export function replayCommand(event: { key: string; altKey: boolean; ctrlKey: boolean; metaKey: boolean }): ReplayCommand | null {
  if (event.altKey || event.ctrlKey || event.metaKey) return null;
  const speed = SPEED_KEYS[event.key];
  if (speed !== undefined) return { kind: "speed", speed };
  switch (event.key) {
    case " ":
      return { kind: "toggle" };
    case "ArrowRight":
      return { kind: "step", direction: 1 };
    case "ArrowLeft":
      return { kind: "step", direction: -1 };
    case "Home":
      return { kind: "start" };
    case "f":
    case "F":
      return { kind: "fullscreen" };
    default:
      return null;
  }
}
