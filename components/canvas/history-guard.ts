/**
 * Catches the browser's Back and Forward buttons before Next's router acts on them (the App Router has no way to
 * block a navigation). Two layers, as browsers allow:
 * - the Navigation API's `navigate` event comes first: a same-document traversal to another page is cancelled
 *   there (where the browser lets the page cancel it), so nothing moves while the question is open; Leave then
 *   traverses to the same entry;
 * - where it may not be cancelled, or in a browser without the Navigation API, `popstate` is caught before Next's
 *   own listener (by the page's first listener, components/shell/history-gate.tsx): the address bar already shows the other entry, so the event is stopped, and
 *   Stay goes back to the editor's entry while Leave hands the same event on to Next. Without the Navigation API
 *   the page cannot know how far that entry is, so Stay puts the editor's address back as a new entry (the
 *   entries after it are dropped, as when a page is opened anew; Back from there asks again).
 */
import { onPopStateFirst } from "../shell/history-gate";

interface HistoryEntry {
  readonly key: string;
  readonly index: number;
  readonly url: string | null;
}

interface NavigateEvent extends Event {
  readonly navigationType: "push" | "replace" | "reload" | "traverse";
  readonly cancelable: boolean;
  readonly destination: { readonly key: string | null; readonly url: string; readonly sameDocument: boolean };
}

interface NavigationLike extends EventTarget {
  readonly currentEntry: HistoryEntry | null;
  traverseTo(key: string): unknown;
}

/** An installed guard. `stay` and `leave` answer the question `onAsk` raised; `dispose` removes the guard. */
export interface HistoryGuard {
  stay(): void;
  leave(): void;
  dispose(): void;
}

/** The browser's Navigation API, where it exists. */
function navigationApi(): NavigationLike | undefined {
  return (window as unknown as { navigation?: NavigationLike }).navigation;
}

/** A page of the studio: path and query (a fragment alone is the same page). */
function pageOf(url: string): string {
  const parsed = new URL(url, window.location.href);
  return `${parsed.origin}${parsed.pathname}${parsed.search}`;
}

const NO_GUARD: HistoryGuard = { stay: () => undefined, leave: () => undefined, dispose: () => undefined };

type Pending = { kind: "cancelled"; destinationKey: string } | { kind: "moved"; state: unknown };

/**
 * Guards the current history entry: a Back/Forward move to another page calls `onAsk(true)`; a move back onto
 * this page while asking (the user pressed the other button) calls `onAsk(false)`.
 */
export function installHistoryGuard(onAsk: (asking: boolean) => void): HistoryGuard {
  if (typeof window === "undefined") return NO_GUARD;
  const api = navigationApi();
  const homeIndex = api?.currentEntry?.index ?? null;
  const homeUrl = window.location.href;
  const homePage = pageOf(homeUrl);
  // Next's own state of the editor's entry, for the entry Stay makes without the Navigation API.
  const homeState: unknown = window.history.state;
  let pending: Pending | null = null;
  let returning = 0;
  let released = false;

  const onNavigate = (event: Event) => {
    const navigate = event as NavigateEvent;
    if (released || navigate.navigationType !== "traverse" || !navigate.cancelable || !navigate.destination.sameDocument) return;
    if (navigate.destination.key === null || pageOf(navigate.destination.url) === homePage || pending !== null) return;
    navigate.preventDefault();
    pending = { kind: "cancelled", destinationKey: navigate.destination.key };
    onAsk(true);
  };

  const onPopState = (event: PopStateEvent) => {
    if (released) return;
    if (pageOf(window.location.href) === homePage) {
      // Our own way back after Stay: Next still shows this page, so the event stops here.
      if (returning > 0) {
        returning--;
        event.stopImmediatePropagation();
      }
      if (pending?.kind === "moved") {
        pending = null;
        onAsk(false);
      }
      return;
    }
    event.stopImmediatePropagation();
    pending = { kind: "moved", state: event.state };
    onAsk(true);
  };

  api?.addEventListener("navigate", onNavigate);
  const removePopState = onPopStateFirst(onPopState);
  const dispose = () => {
    released = true;
    api?.removeEventListener("navigate", onNavigate);
    removePopState();
  };

  return {
    stay() {
      const answered = pending;
      pending = null;
      if (answered?.kind !== "moved") return;
      const here = api?.currentEntry ?? null;
      if (here === null || homeIndex === null) {
        // No index to go back by: the editor's address again, as a new entry (no popstate, Next keeps its page).
        window.history.pushState(homeState, "", homeUrl);
        return;
      }
      if (here.index === homeIndex) return;
      returning++;
      window.history.go(homeIndex - here.index);
    },
    leave() {
      const answered = pending;
      pending = null;
      dispose();
      if (answered === null) return;
      if (answered.kind === "cancelled") api?.traverseTo(answered.destinationKey);
      // The event Next did not see, again: its router now shows the entry the browser is already on.
      else window.dispatchEvent(new PopStateEvent("popstate", { state: answered.state }));
    },
    dispose,
  };
}
