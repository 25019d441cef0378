"use client";
/**
 * While `active` (unsaved changes), leaving the editor asks first:
 * - closing or reloading the tab gets the browser's own prompt (`beforeunload`);
 * - a click on a link to another page of the studio (the header, a run link) gets a confirm: the App Router has no
 *   navigation-blocking API, so the click is stopped in the capture phase before Next's `<Link>` handles it; links
 *   that open elsewhere (new tab, download, modified clicks) are left alone;
 * - the browser's Back and Forward buttons get the editor's own dialog (history-guard.ts): `asking` opens it,
 *   `stay` returns to the editor's history entry, `leave` lets the navigation through (the draft keeps the edits).
 */
import { useCallback, useEffect, useRef, useState } from "react";
import { installHistoryGuard, type HistoryGuard } from "./history-guard";

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

/** The Back/Forward question: open while `asking`; `stay` and `leave` answer it. */
export interface LeavePrompt {
  asking: boolean;
  stay: () => void;
  leave: () => void;
}

/** Installs the guard while `active`. */
export function useLeaveGuard(active: boolean): LeavePrompt {
  const [asking, setAsking] = useState(false);
  const history = useRef<HistoryGuard | null>(null);
  // Set once the user chose to leave: the page may unload next (an entry of another document), and must not ask again.
  const leaving = useRef(false);

  useEffect(() => {
    if (!active) return undefined;
    leaving.current = false;
    const beforeUnload = (event: BeforeUnloadEvent) => {
      if (leaving.current) return;
      event.preventDefault();
      event.returnValue = "";
    };
    const click = (event: MouseEvent) => {
      if (!leavesThePage(event) || window.confirm(LEAVE_QUESTION)) return;
      event.preventDefault();
      event.stopPropagation();
    };
    const guard = installHistoryGuard(setAsking);
    history.current = guard;
    window.addEventListener("beforeunload", beforeUnload);
    document.addEventListener("click", click, true);
    return () => {
      guard.dispose();
      history.current = null;
      setAsking(false);
      window.removeEventListener("beforeunload", beforeUnload);
      document.removeEventListener("click", click, true);
    };
  }, [active]);

  const stay = useCallback(() => {
    setAsking(false);
    history.current?.stay();
  }, []);
  const leave = useCallback(() => {
    setAsking(false);
    leaving.current = true;
    history.current?.leave();
  }, []);
  return { asking, stay, leave };
}
