import { useEffect, useState } from "react";

/** Longest wait for an idle moment: a page that is never idle still gets its answer. */
const MAX_WAIT_MS = 1000;

/**
 * True once the main thread has been idle (requestIdleCallback: no task waiting) since `ready`
 * last turned true; false while it is not. The playground's results panel counts a result drawn
 * once its heatmap takes it, but the heatmap measures, pools and draws it in tasks of its own that
 * follow (a slice of rows per task), so "taken" is not yet "drawn"; idle is.
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
