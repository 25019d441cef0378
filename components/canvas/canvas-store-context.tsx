"use client";
/** One canvas store per editor, provided to the components below; `useCanvasStore` throws outside a provider. */
import { createContext, useContext, type ReactNode } from "react";
import { useStore } from "zustand";
import type { TemporalState } from "zundo";
import type { CanvasDocument } from "./canvas-document";
import type { CanvasState, CanvasStore } from "./canvas-store";

const CanvasStoreContext = createContext<CanvasStore | null>(null);

/** Provides `store` to the editor's components. */
export function CanvasStoreProvider({ store, children }: { store: CanvasStore; children: ReactNode }) {
  return <CanvasStoreContext.Provider value={store}>{children}</CanvasStoreContext.Provider>;
}

/** The store itself (for actions called from event handlers). */
export function useCanvasStoreApi(): CanvasStore {
  const store = useContext(CanvasStoreContext);
  if (store === null) throw new Error("useCanvasStore must be used inside <CanvasStoreProvider>");
  return store;
}

/** A slice of the canvas state; re-renders when the slice changes. */
export function useCanvasStore<T>(selector: (state: CanvasState) => T): T {
  return useStore(useCanvasStoreApi(), selector);
}

/** A slice of the undo/redo history. */
export function useCanvasHistory<T>(selector: (state: TemporalState<{ document: CanvasDocument }>) => T): T {
  return useStore(useCanvasStoreApi().temporal, selector);
}
