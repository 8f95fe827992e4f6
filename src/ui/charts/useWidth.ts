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
 * The element's clientWidth, read where the browser's own layout first reports the element (a
 * ResizeObserver's callback: the layout is done there, reading it forces none) and after each
 * resize; null until then. Not read in the mount's commit, as useWidth does: there clientWidth forces
 * the page's whole layout into the mount's task, and the new width renders what depends on it a
 * second time in that task (a chart built at the fallback width, then at its own).
 */
export function useLaidOutWidth(ref: RefObject<HTMLElement | null>): number | null {
  const [width, setWidth] = useState<number | null>(null);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const observer = new ResizeObserver(() => setWidth(Math.max(120, Math.floor(element.clientWidth))));
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
  return width;
}

/** useLaidOutWidth, `fallback` until the first report: for an element drawn before it is measured (the row editor). */
export function useObservedWidth(ref: RefObject<HTMLElement | null>, fallback = 640): number {
  return useLaidOutWidth(ref) ?? fallback;
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
