"use client";
/**
 * Escape in the session panel or the chunk inspector clears the chunk selection: the inspector shows "No chunk
 * selected" and the URL drops `chunk=`; the session stays selected. Escape in a text field or a dialog is theirs
 * (a draft or a dialog closes, the selection stays). From inside the inspector, focus moves to the chunk's row in
 * the list, so the keyboard is not left on an element that just went away.
 */
import { useCallback, type KeyboardEvent } from "react";

/** Where Escape belongs to the element itself, not to the panel. */
const OWN_ESCAPE = "input, textarea, select, [contenteditable=''], [contenteditable='true'], dialog, [role='dialog']";

/** A keydown handler for the session panel and the inspector. */
export function useEscapeClearsChunk(chunkSelected: boolean, clear: () => void): (event: KeyboardEvent<HTMLElement>) => void {
  return useCallback(
    (event: KeyboardEvent<HTMLElement>) => {
      if (event.key !== "Escape" || event.defaultPrevented || !chunkSelected) return;
      if (event.target instanceof Element && event.target.closest(OWN_ESCAPE) !== null) return;
      event.preventDefault();
      const row = event.currentTarget.id === "run-inspector-panel" ? document.querySelector<HTMLElement>('#run-session-panel [data-testid="chunk-select"][aria-current="true"]') : null;
      clear();
      row?.focus();
    },
    [chunkSelected, clear],
  );
}
