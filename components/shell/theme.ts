/** The theme choice and how it becomes the `dark` class on <html> (pure helpers plus one DOM write). */

/** Where the choice is stored in localStorage. */
export const THEME_STORAGE_KEY = "rath-theme";

/** What the user picked; "system" follows the OS setting. */
export type ThemeChoice = "system" | "light" | "dark";

/** The order the toggle cycles through. */
export const THEME_CHOICES: readonly ThemeChoice[] = ["system", "light", "dark"];

/** Parses a stored value; anything unknown is "system". */
export function parseThemeChoice(value: string | null | undefined): ThemeChoice {
  return value === "light" || value === "dark" ? value : "system";
}

/** Whether the page should be dark for this choice, given whether the OS prefers dark. */
export function isDark(choice: ThemeChoice, systemPrefersDark: boolean): boolean {
  return choice === "dark" || (choice === "system" && systemPrefersDark);
}

/** The choice after `choice` in the toggle's cycle. */
export function nextThemeChoice(choice: ThemeChoice): ThemeChoice {
  return THEME_CHOICES[(THEME_CHOICES.indexOf(choice) + 1) % THEME_CHOICES.length] ?? "system";
}

/** Applies a choice to <html> (class and data attribute) and stores it. Browser only. */
export function applyThemeChoice(choice: ThemeChoice): void {
  const root = document.documentElement;
  root.classList.toggle("dark", isDark(choice, window.matchMedia("(prefers-color-scheme: dark)").matches));
  root.dataset.theme = choice;
  try {
    window.localStorage.setItem(THEME_STORAGE_KEY, choice);
  } catch {
    // Storage can be unavailable (private mode); the class still applies for this page.
  }
}
