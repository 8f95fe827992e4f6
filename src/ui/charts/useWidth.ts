import { type RefObject, useLayoutEffect, useState } from "react";

/** The element's content width in CSS pixels, following resizes. */
export function useWidth(ref: RefObject<HTMLElement | null>, fallback = 640): number {
  const [width, setWidth] = useState(fallback);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () => setWidth(Math.max(120, Math.floor(element.clientWidth)));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
  return width;
}

/**
 * useWidth, without reading the width in the mount's commit: `fallback` until the browser's own
 * layout first reports the element (ResizeObserver), then the same clientWidth. For an element that
 * mounts with the page (the row editor): its clientWidth in that commit forced the page's whole first
 * layout into the mount's task, and its new width a second render there.
 */
export function useObservedWidth(ref: RefObject<HTMLElement | null>, fallback = 640): number {
  const [width, setWidth] = useState(fallback);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    // In the observer's callback the layout is done: clientWidth reads it, it forces none.
    const observer = new ResizeObserver(() => setWidth(Math.max(120, Math.floor(element.clientWidth))));
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
  return width;
}

/**
 * The element's content width in CSS pixels, following resizes; null until the browser's own layout
 * first reports it. Not read in the mount's commit (useWidth's clientWidth forces the whole page's
 * layout there, and its new width draws a canvas again in the same task): a canvas drawn at this
 * width is drawn once, in a task of its own after the frame that laid it out.
 */
export function useMeasuredWidth(ref: RefObject<HTMLElement | null>): number | null {
  const [width, setWidth] = useState<number | null>(null);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const observer = new ResizeObserver((entries) => {
      const box = entries.at(-1)?.contentRect;
      if (box) setWidth(Math.max(120, Math.floor(box.width)));
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
  return width;
}
