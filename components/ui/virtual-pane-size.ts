/**
 * Options that keep the virtualised lists of the run page from forcing layouts. @tanstack/react-virtual's defaults
 * read `clientWidth`/`clientHeight` when a list mounts and in its ResizeObserver callback, and scroll the new list
 * to its initial offset (0, where a new element already is); on the run page each of these lays out the whole page
 * (the graph included), and a live run mounts a new chunk list for every new session, so together they were the
 * largest share of the page's work per live event. Here the size comes from the ResizeObserver's entry only, a new
 * list starts from the size the last one of its kind had, and a scroll to where the element already is, is skipped.
 */
import { elementScroll, type Rect, type Virtualizer } from "@tanstack/react-virtual";

/** Sizes last seen, by list kind (a remounted list starts with its predecessor's size). */
const lastSizes = new Map<string, Rect>();

/** Elements the virtualizer has scrolled: a new one is at offset 0 until then. */
const scrolled = new WeakSet<Element>();

type ScrollTo = typeof elementScroll<HTMLDivElement>;

/** The virtualizer's element scroll, without the write of offset 0 to an element that has never scrolled. */
const scrollUnlessAlreadyThere: ScrollTo = (offset, options, instance) => {
  const element = instance.scrollElement;
  if (element === null) return;
  // At its start as far as the virtualizer knows (a scroll by the person moves its offset): nothing to write.
  if (!scrolled.has(element) && offset + (options.adjustments ?? 0) <= 0 && (instance.scrollOffset ?? 0) <= 0) return;
  scrolled.add(element);
  elementScroll(offset, options, instance);
};

/**
 * Options for `useVirtualizer`: `observeElementRect` from ResizeObserver entries, `initialRect` the last size of
 * a list of this `kind`, and `scrollToFn` without the no-op scroll of a new list.
 */
export function paneSizeOptions(kind: string): {
  initialRect: Rect;
  observeElementRect: (instance: Virtualizer<HTMLDivElement, Element>, onSize: (rect: Rect) => void) => () => void;
  scrollToFn: ScrollTo;
} {
  return {
    scrollToFn: scrollUnlessAlreadyThere,
    initialRect: lastSizes.get(kind) ?? { width: 0, height: 0 },
    observeElementRect: (instance, onSize) => {
      const element = instance.scrollElement;
      if (element === null || typeof ResizeObserver === "undefined") return () => undefined;
      const observer = new ResizeObserver((entries) => {
        const box = entries[entries.length - 1]?.contentRect;
        if (box === undefined) return;
        const size = { width: Math.round(box.width), height: Math.round(box.height) };
        lastSizes.set(kind, size);
        onSize(size);
      });
      observer.observe(element);
      return () => observer.disconnect();
    },
  };
}
