"use client";
/**
 * React access to the theme. `useIsDark()` follows the `dark` class on <html> (for widgets that take a theme
 * prop: Monaco, React Flow's colorMode); `useThemeChoice()` reads and changes the stored choice and keeps
 * "system" in step with the OS while the page is open.
 */
import { useCallback, useEffect, useState, useSyncExternalStore } from "react";
import { applyThemeChoice, parseThemeChoice, THEME_STORAGE_KEY, type ThemeChoice } from "./theme";

function subscribeToRootClass(onChange: () => void): () => void {
  const observer = new MutationObserver(onChange);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ["class"] });
  return () => observer.disconnect();
}

/** True while the page is dark. Server render: false (the inline theme script fixes the class before paint). */
export function useIsDark(): boolean {
  return useSyncExternalStore(
    subscribeToRootClass,
    () => document.documentElement.classList.contains("dark"),
    () => false,
  );
}

/** The stored theme choice and a setter that applies it at once. */
export function useThemeChoice(): [ThemeChoice, (choice: ThemeChoice) => void] {
  const [choice, setChoice] = useState<ThemeChoice>("system");

  useEffect(() => {
    setChoice(parseThemeChoice(window.localStorage.getItem(THEME_STORAGE_KEY)));
  }, []);

  useEffect(() => {
    if (choice !== "system") return undefined;
    const media = window.matchMedia("(prefers-color-scheme: dark)");
    const follow = () => applyThemeChoice("system");
    media.addEventListener("change", follow);
    return () => media.removeEventListener("change", follow);
  }, [choice]);

  const change = useCallback((next: ThemeChoice) => {
    applyThemeChoice(next);
    setChoice(next);
  }, []);

  return [choice, change];
}
