import { useCallback, useRef, useState } from "react";

/**
 * The content width of an element, kept up to date as it resizes. Returns a callback ref, so the
 * width is measured whenever the element appears (the stage mounts only once a run is ready).
 */
export function useWidth<E extends HTMLElement>(fallback: number): [(element: E | null) => void, number] {
  const [width, setWidth] = useState(fallback);
  const observer = useRef<ResizeObserver | undefined>(undefined);
  const ref = useCallback(
    (element: E | null) => {
      observer.current?.disconnect();
      observer.current = undefined;
      if (!element) return;
      setWidth(Math.floor(element.clientWidth) || fallback);
      observer.current = new ResizeObserver((entries) => {
        const w = entries[0]?.contentRect.width;
        if (w) setWidth(Math.floor(w));
      });
      observer.current.observe(element);
    },
    [fallback],
  );
  return [ref, width];
}
