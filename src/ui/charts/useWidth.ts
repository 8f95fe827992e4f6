import { type RefObject, useLayoutEffect, useRef, useState } from "react";

/**
 * The element's width in CSS pixels (its clientWidth, at least 120), following resizes; `fallback`
 * until the browser's own layout first reports the element (null where none is given, for a chart
 * that draws nothing until then). Read in a ResizeObserver's callback, never in the commit: there
 * the layout is already done, while clientWidth read in the mount's commit forces the whole page's
 * layout into that task and renders what depends on the width a second time in it. The element may
 * mount late (the player's stage appears once a run is ready): each commit looks whether it changed.
 */
export function useWidth(ref: RefObject<HTMLElement | null>, fallback: number): number;
export function useWidth(ref: RefObject<HTMLElement | null>): number | null;
export function useWidth(ref: RefObject<HTMLElement | null>, fallback?: number): number | null {
  const [width, setWidth] = useState<number | null>(null);
  const watched = useRef<{ element: HTMLElement; observer: ResizeObserver } | null>(null);
  useLayoutEffect(() => {
    const element = ref.current;
    if (watched.current?.element === element) return;
    watched.current?.observer.disconnect();
    watched.current = null;
    if (!element) return;
    const observer = new ResizeObserver(() => {
      if (element.isConnected) setWidth(Math.max(120, Math.floor(element.clientWidth)));
    });
    observer.observe(element);
    watched.current = { element, observer };
  });
  useLayoutEffect(
    () => () => {
      watched.current?.observer.disconnect();
      watched.current = null;
    },
    [],
  );
  return width ?? fallback ?? null;
}
