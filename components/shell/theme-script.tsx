/**
 * Sets the theme class on <html> before the first paint, so a dark-mode user never sees a white flash. The
 * stored choice (`rath-theme`: "light" | "dark" | "system", default "system") wins; "system" follows the OS.
 * The same rule lives in theme.ts for the toggle; this copy is a string because it runs before React.
 */
import { THEME_STORAGE_KEY } from "./theme";

const script = `(function(){try{var c=localStorage.getItem(${JSON.stringify(THEME_STORAGE_KEY)});var d=c==="dark"||((c===null||c==="system")&&window.matchMedia("(prefers-color-scheme: dark)").matches);document.documentElement.classList.toggle("dark",d);document.documentElement.dataset.theme=c||"system";}catch(e){}})();`;

/** An inline script for <head>; renders nothing visible. */
export function ThemeScript() {
  // The script is a constant written above (no user input), so inlining it is safe.
  return <script dangerouslySetInnerHTML={{ __html: script }} />;
}
