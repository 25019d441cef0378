"use client";
/** The size of the element `ref` points at, followed with a ResizeObserver while `active` (null until measured). */
import { useEffect, useState, type RefObject } from "react";

/** Width and height in px. */
export interface PaneSize {
  width: number;
  height: number;
}

/** The element's size, or null while not `active` or not yet measured. */
export function usePaneSize(ref: RefObject<HTMLElement | null>, active: boolean): PaneSize | null {
  const [size, setSize] = useState<PaneSize | null>(null);
  useEffect(() => {
    const element = ref.current;
    if (!active || element === null) return undefined;
    const measure = () => setSize((current) => (current?.width === element.clientWidth && current.height === element.clientHeight ? current : { width: element.clientWidth, height: element.clientHeight }));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref, active]);
  return active ? size : null;
}
