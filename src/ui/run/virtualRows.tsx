import { elementScroll, type Rect, useVirtualizer, type Virtualizer } from "@tanstack/react-virtual";
import type { RefObject } from "react";

/**
 * Every row's height (run.css holds it, on one line): fixed, not measured, so the rows' offsets are
 * exact and nothing shifts under the scroll position as rows come into view.
 */
export const ROW_HEIGHT = 30;
/** Up to this many rows are all in the page (a small table needs no scrolling from a script). */
const RENDER_ALL_UP_TO = 200;
/** The scrolling box's height before it is first laid out: run.css's `max-height` of `.table-scroll`. */
const BOX_HEIGHT = 420;

/**
 * The scrolling box's size as a ResizeObserver reports it, after the browser's own layout. The
 * virtualizer's default reads `clientHeight` when it mounts, which forced the layout of the whole page
 * inside the task that mounts a 512-sample dump's table (20 ms of its 36–47 ms of CPU); until the
 * first report the box is taken at its largest height, so the rows in view are drawn at once.
 */
function observeBoxSize(instance: Virtualizer<HTMLElement, Element>, report: (rect: Rect) => void) {
  const box = instance.scrollElement;
  if (!box || typeof ResizeObserver === "undefined") return;
  const observer = new ResizeObserver(() => report({ width: box.clientWidth, height: box.clientHeight }));
  observer.observe(box);
  return () => observer.disconnect();
}

/** The virtualizers that have written a scroll offset to their box. */
const wroteOnce = new WeakSet<Virtualizer<HTMLElement, Element>>();

/**
 * The virtualizer's scroll, less the write of offset 0 it makes when it first meets its box: a box
 * just mounted is at 0 already, and scrolling it forced the page's layout inside the task that mounts
 * a 512-sample dump's table (the largest part of its 30 ms of CPU once clientHeight was no longer read).
 */
function scrollBox(
  offset: number,
  options: { adjustments?: number; behavior?: ScrollBehavior },
  instance: Virtualizer<HTMLElement, Element>,
) {
  const first = !wroteOnce.has(instance);
  wroteOnce.add(instance);
  if (first && offset + (options.adjustments ?? 0) === 0) return;
  elementScroll(offset, options, instance);
}

/**
 * The rows of a long table that are in view of its scrolling box, and the heights that stand in for
 * the rest above and below (a batch of 4,096 samples mounted at once held the main thread for a second).
 */
export function useVirtualRows(count: number, scroller: RefObject<HTMLElement | null>) {
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: count <= RENDER_ALL_UP_TO ? count : 12,
    useFlushSync: false,
    initialRect: { width: 0, height: BOX_HEIGHT },
    observeElementRect: observeBoxSize,
    scrollToFn: scrollBox,
  });
  const items = virtualizer.getVirtualItems();
  const above = items.length > 0 ? items[0].start : 0;
  const below = items.length > 0 ? virtualizer.getTotalSize() - items[items.length - 1].end : 0;
  return { virtualizer, items, above, below };
}

/** Stands in for the rows out of view, so the scroll bar matches the whole table. */
export function Spacer({ height, columns }: { height: number; columns: number }) {
  if (height <= 0) return null;
  return (
    // biome-ignore lint/a11y/noAriaHiddenOnFocusable: a spacer row has no content and takes no focus; it only holds the scroll height.
    <tr className="run-samples-spacer" aria-hidden="true" style={{ height }}>
      <td colSpan={columns} />
    </tr>
  );
}
