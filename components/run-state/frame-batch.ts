/**
 * Collects items that arrive in bursts (a live run's streamed events) and hands them over in one batch per animation
 * frame, so the page renders a burst once instead of once per event. `flushNow` hands over what is queued at once
 * (the stream ended); `cancel` drops the pending frame. Pure scheduling; no React.
 */

/** Schedules a callback for the next frame and returns a handle that cancels it. */
export type FrameScheduler = (callback: () => void) => () => void;

/** The browser's next animation frame. */
export const nextAnimationFrame: FrameScheduler = (callback) => {
  const handle = window.requestAnimationFrame(() => callback());
  return () => window.cancelAnimationFrame(handle);
};

/** A queue flushed once per frame. */
export interface FrameBatch<T> {
  push: (item: T) => void;
  flushNow: () => void;
  cancel: () => void;
}

/** A batch that calls `flush` with everything pushed since the last call, at most once per frame. */
export function createFrameBatch<T>(flush: (items: T[]) => void, schedule: FrameScheduler = nextAnimationFrame): FrameBatch<T> {
  let queue: T[] = [];
  let pending: (() => void) | null = null;
  const flushNow = (): void => {
    pending?.();
    pending = null;
    const items = queue;
    queue = [];
    if (items.length > 0) flush(items);
  };
  return {
    push: (item) => {
      queue.push(item);
      pending ??= schedule(() => {
        pending = null;
        flushNow();
      });
    },
    flushNow,
    cancel: () => {
      pending?.();
      pending = null;
      queue = [];
    },
  };
}
