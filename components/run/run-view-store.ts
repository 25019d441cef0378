/**
 * View state of one run page (zustand, one store per page): what is selected (session, chunk), what is hovered
 * (linking the graph and the timeline), which chains are expanded, and which panel a narrow screen shows. Server
 * data lives in the tRPC query cache and the live graph, never here.
 */
import { createContext, createElement, useContext, useState, type ReactNode } from "react";
import { createStore, useStore, type StoreApi } from "zustand";

/** The panels a narrow screen switches between. */
export type RunPanel = "graph" | "session" | "inspector" | "timeline";

/** The state and its actions. */
export interface RunViewState {
  sessionId: string | null;
  chunkIndex: number | null;
  /** Sessions highlighted because the pointer is over them in the graph or over their step in the timeline. */
  hoveredSessions: ReadonlySet<string>;
  expandedChains: ReadonlySet<string>;
  panel: RunPanel;
  select: (sessionId: string | null, chunkIndex?: number | null) => void;
  selectChunk: (chunkIndex: number | null) => void;
  hover: (sessionIds: readonly string[]) => void;
  toggleChain: (chainId: string) => void;
  /** Opens one chain (no-op when open). */
  expandChain: (chainId: string) => void;
  /** Closes every chain opened so far. */
  collapseChains: () => void;
  showPanel: (panel: RunPanel) => void;
}

const NOTHING: ReadonlySet<string> = new Set();

/** A store with the given first selection (from the URL). */
export function createRunViewStore(initial: { sessionId: string | null; chunkIndex: number | null }): StoreApi<RunViewState> {
  return createStore<RunViewState>((set, get) => ({
    sessionId: initial.sessionId,
    chunkIndex: initial.chunkIndex,
    hoveredSessions: NOTHING,
    expandedChains: NOTHING,
    panel: "graph",
    select: (sessionId, chunkIndex = null) => set({ sessionId, chunkIndex }),
    selectChunk: (chunkIndex) => set({ chunkIndex }),
    hover: (sessionIds) => {
      const current = get().hoveredSessions;
      if (sessionIds.length === 0 && current.size === 0) return;
      set({ hoveredSessions: sessionIds.length === 0 ? NOTHING : new Set(sessionIds) });
    },
    toggleChain: (chainId) => {
      const next = new Set(get().expandedChains);
      if (next.has(chainId)) next.delete(chainId);
      else next.add(chainId);
      set({ expandedChains: next });
    },
    expandChain: (chainId) => {
      if (get().expandedChains.has(chainId)) return;
      set({ expandedChains: new Set([...get().expandedChains, chainId]) });
    },
    collapseChains: () => set({ expandedChains: NOTHING }),
    showPanel: (panel) => set({ panel }),
  }));
}

const RunViewContext = createContext<StoreApi<RunViewState> | null>(null);

/** Provides one store to the run page below it. */
export function RunViewStoreProvider({ initial, children }: { initial: { sessionId: string | null; chunkIndex: number | null }; children: ReactNode }) {
  const [store] = useState(() => createRunViewStore(initial));
  return createElement(RunViewContext.Provider, { value: store }, children);
}

/** Reads the run page's view state; throws outside `RunViewStoreProvider`. */
export function useRunView<T>(selector: (state: RunViewState) => T): T {
  const store = useContext(RunViewContext);
  if (store === null) throw new Error("useRunView must be used inside RunViewStoreProvider");
  return useStore(store, selector);
}
