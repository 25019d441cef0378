/**
 * The bar above every page: the product mark (home link; on a share page, the shared run), the section links, and on
 * the right whatever the layout passes in `end` (provider in use, account) followed by the theme toggle. Full width,
 * fixed height (`--header-height`), so IDE pages can give the rest of the viewport to the canvas.
 */
import type { ReactNode } from "react";
import { AppNav } from "./app-nav";
import { HomeLink } from "./home-link";
import { ThemeToggle } from "./theme-toggle";

/** The header; `end` renders before the theme toggle. */
export function AppHeader({ end }: { end?: ReactNode }) {
  return (
    <header data-testid="app-header" className="sticky top-0 z-40 h-[var(--header-height)] border-b border-line bg-surface/95 backdrop-blur supports-[backdrop-filter]:bg-surface/80">
      <div className="flex h-full items-center gap-3 px-3 sm:px-4">
        <HomeLink />
        <AppNav />
        <div className="ml-auto flex shrink-0 items-center gap-2">
          {end}
          <ThemeToggle />
        </div>
      </div>
    </header>
  );
}
