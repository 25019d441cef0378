"use client";
/**
 * The page's first `popstate` listener, ahead of Next's router. Listeners on `window` run in the order they were
 * added, capture or not (Chromium), and the App Router adds its own in an effect once it has hydrated; this module
 * adds one when it is evaluated, before that, and hands each event to the handlers registered here, which may stop
 * it before the router sees it (components/canvas/history-guard.ts). Rendered once by the root layout so it is
 * loaded with the first page, whichever page that is.
 */

type PopStateHandler = (event: PopStateEvent) => void;

const handlers = new Set<PopStateHandler>();

if (typeof window !== "undefined") {
  window.addEventListener("popstate", (event) => {
    for (const handler of [...handlers]) handler(event);
  });
}

/** Runs `handler` on every popstate before Next's router; returns the function that removes it. */
export function onPopStateFirst(handler: PopStateHandler): () => void {
  handlers.add(handler);
  return () => {
    handlers.delete(handler);
  };
}

/** Loads the gate with the root layout; draws nothing. */
export function HistoryGate(): null {
  return null;
}
