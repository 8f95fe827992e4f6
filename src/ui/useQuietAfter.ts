import { useEffect, useState } from "react";

/** Longest wait for an idle moment: a page that is never idle still gets its answer. */
const MAX_WAIT_MS = 1000;

/**
 * True once the main thread has been idle (requestIdleCallback: no task waiting) since `ready`
 * last turned true; false while it is not. The playground's panels take a result in one commit
 * but draw it in tasks of their own that follow (each chart's plot, the heatmap's pooling), so
 * "taken" is not yet "drawn"; idle is.
 */
export function useQuietAfter(ready: boolean): boolean {
  const [quiet, setQuiet] = useState(false);
  useEffect(() => {
    setQuiet(false);
    if (!ready) return;
    if (typeof window.requestIdleCallback !== "function") {
      const timer = setTimeout(() => setQuiet(true), 50);
      return () => clearTimeout(timer);
    }
    const id = window.requestIdleCallback(() => setQuiet(true), { timeout: MAX_WAIT_MS });
    return () => window.cancelIdleCallback(id);
  }, [ready]);
  return ready && quiet;
}
