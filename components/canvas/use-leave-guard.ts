"use client";
/**
 * While `active` (unsaved changes), leaving the editor asks first: closing or reloading the tab gets the browser's
 * own prompt (`beforeunload`), and a click on a link to another page of the studio (the header, a run link) gets a
 * confirm — the App Router has no navigation-blocking API, so the click is stopped in the capture phase before
 * Next's `<Link>` handles it. Links that open elsewhere (new tab, download, modified clicks) are left alone.
 */
import { useEffect } from "react";

/** The question asked before an in-app link leaves unsaved changes. */
export const LEAVE_QUESTION = "This workflow has unsaved changes. Leave the editor anyway? (They stay in this browser's draft.)";

function leavesThePage(event: MouseEvent): boolean {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return false;
  const anchor = event.target instanceof Element ? event.target.closest("a[href]") : null;
  if (!(anchor instanceof HTMLAnchorElement) || anchor.hasAttribute("download") || (anchor.target !== "" && anchor.target !== "_self")) return false;
  const destination = new URL(anchor.href, window.location.href);
  if (destination.origin !== window.location.origin) return false;
  return destination.pathname !== window.location.pathname;
}

/** Installs the guard while `active`. */
export function useLeaveGuard(active: boolean): void {
  useEffect(() => {
    if (!active) return undefined;
    const beforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = "";
    };
    const click = (event: MouseEvent) => {
      if (!leavesThePage(event) || window.confirm(LEAVE_QUESTION)) return;
      event.preventDefault();
      event.stopPropagation();
    };
    window.addEventListener("beforeunload", beforeUnload);
    document.addEventListener("click", click, true);
    return () => {
      window.removeEventListener("beforeunload", beforeUnload);
      document.removeEventListener("click", click, true);
    };
  }, [active]);
}
