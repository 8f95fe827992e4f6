import { type ReactElement, useEffect, useState } from "react";
import { flushSync } from "react-dom";

/**
 * The plot to show: the last one until a timer task of its own has drawn `next` (rendered, committed
 * and its effects flushed there: flushSync). Recharts draws a new plot mostly in its commit's
 * effects, so charts that took new data in one render drew all of it in one task: the run view's four
 * trend charts, redrawn as each step arrives, are four short tasks this way, not one long one. Before
 * the first plot is drawn the chart shows its frame only.
 */
export function usePlotInOwnTask(next: ReactElement): ReactElement | null {
  const [shown, setShown] = useState<ReactElement | null>(null);
  useEffect(() => {
    if (shown === next) return;
    const timer = setTimeout(() => flushSync(() => setShown(next)), 0);
    return () => clearTimeout(timer);
  }, [next, shown]);
  return shown;
}
