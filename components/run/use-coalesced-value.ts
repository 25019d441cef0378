"use client";
/**
 * A value shown with a lag while it changes fast: with `intervalMs` > 0 the returned value follows `value` at most
 * once per interval (the first change at once, after the frame that made it is painted; always ending on the
 * latest), rendered in a transition, so an urgent update (a live event) is never held back by it and may interrupt
 * its render. With `intervalMs` 0 it is `value` itself. The run page shows the session graph and the timeline
 * through it while the stream is live: a step's events paint the live indicator and the chunk list in their own
 * frame, and the graph's growth (layout, reframe, xyflow render) follows a few times a second.
 */
import { startTransition, useEffect, useRef, useState } from "react";
import { createCoalescer, type Coalescer } from "../run-state/coalesce";

export function useCoalescedValue<T>(value: T, intervalMs: number): T {
  const [shown, setShown] = useState(value);
  // Not lagging: what is shown is the value (kept, so that a lag starting later starts from it).
  if (intervalMs <= 0 && shown !== value) setShown(() => value);
  const coalescer = useRef<Coalescer<T> | null>(null);
  useEffect(() => {
    if (intervalMs <= 0) return;
    const created = createCoalescer<T>((next) => startTransition(() => setShown(() => next)), { intervalMs });
    coalescer.current = created;
    return () => {
      created.cancel();
      coalescer.current = null;
    };
  }, [intervalMs]);
  useEffect(() => {
    coalescer.current?.push(value);
  }, [value, intervalMs]);
  return intervalMs > 0 ? shown : value;
}
