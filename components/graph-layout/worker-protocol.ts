/** Messages between the layout client and its worker (plain data: they are structured-cloned). */
import type { LayoutGraphInput, LayoutOptions, LayoutResult } from "./layout-types";

/** Lay out `graph`; the answer carries the same `id`. */
export interface LayoutRequestMessage {
  id: number;
  graph: LayoutGraphInput;
  options: LayoutOptions;
}

/** The positions for request `id`, or why it failed; `thread` says where ELK ran ("worker" off the main thread). */
export type LayoutResponseMessage =
  | { id: number; ok: true; result: LayoutResult; thread: "worker" | "main"; elapsedMs: number }
  | { id: number; ok: false; message: string };
