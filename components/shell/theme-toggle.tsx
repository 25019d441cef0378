"use client";
/** The header's theme button: cycles system → light → dark, with the current choice as icon and label. */
import { Monitor, Moon, Sun } from "lucide-react";
import { nextThemeChoice, type ThemeChoice } from "./theme";
import { useThemeChoice } from "./use-theme";

const LABELS: Record<ThemeChoice, string> = { system: "Theme: follows the system", light: "Theme: light", dark: "Theme: dark" };

/** One icon button; its accessible name says the current theme and what a click does. */
export function ThemeToggle() {
  const [choice, setChoice] = useThemeChoice();
  const Icon = choice === "dark" ? Moon : choice === "light" ? Sun : Monitor;
  const next = nextThemeChoice(choice);
  return (
    <button
      type="button"
      data-testid="theme-toggle"
      data-theme-choice={choice}
      onClick={() => setChoice(next)}
      title={`${LABELS[choice]} (click for ${next})`}
      aria-label={`${LABELS[choice]}. Switch to ${next}.`}
      className="inline-flex size-8 items-center justify-center rounded-md text-muted hover:bg-raised hover:text-ink"
    >
      <Icon className="size-4" aria-hidden="true" />
    </button>
  );
}
