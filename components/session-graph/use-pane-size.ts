"use client";
/** The size of the element `ref` points at, followed with a ResizeObserver (null until measured). */
import { useEffect, useState, type RefObject } from "react";

/** Width and height in px. */
export interface PaneSize {
  width: number;
  height: number;
}

/** The element's size, or null while not yet measured. */
export function usePaneSize(ref: RefObject<HTMLElement | null>): PaneSize | null {
  const [size, setSize] = useState<PaneSize | null>(null);
  useEffect(() => {
    const element = ref.current;
    if (element === null) return undefined;
    const measure = () => setSize((current) => (current?.width === element.clientWidth && current.height === element.clientHeight ? current : { width: element.clientWidth, height: element.clientHeight }));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
  return size;
}
