import { type ReactElement, startTransition, useEffect, useState } from "react";
import { flushSync } from "react-dom";

/**
 * When a chart draws a new plot:
 * - `"now"`: in the render that brings it, for a teaching-size result drawn in the frame of the edit;
 * - `"own task"`: in a timer task of its own (a large result, see usePlotInOwnTask);
 * - `"slices"`: in a task of its own, rendered as a transition in slices of a few milliseconds.
 */
export type PlotTiming = "now" | "own task" | "slices";

/**
 * The plot to show: `next` at once, or the last one until a task of its own has drawn `next`.
 *
 * Recharts draws a new plot mostly in its commit's effects (its store's updates re-render
 * synchronously), so charts that took their new data in the same render drew all of it in one
 * task: the three charts of a 16 × 8192 result made one task of 60–120 ms, over the playground's
 * 100 ms target on a 2-core machine once other threads want the cores. With `"own task"` each chart
 * takes its plot in a timer task of its own, rendered, committed and its effects flushed there
 * (flushSync). Before the first plot is drawn the chart shows its frame only.
 *
 * `"slices"`: the timer hands the plot over as a transition instead, which React renders in slices of a
 * few milliseconds; the commit and recharts' own updates that follow it (its store tells its
 * subscribers in an animation frame) still come whole. For a chart mounted alone, as the run view's
 * sample chart is, where nothing else would join the transition.
 */
export function usePlotInOwnTask(next: ReactElement, timing: PlotTiming = "own task"): ReactElement | null {
  const [shown, setShown] = useState<ReactElement | null>(null);
  const now = timing === "now";
  useEffect(() => {
    if (now || shown === next) return;
    const timer = setTimeout(
      () => (timing === "slices" ? startTransition(() => setShown(next)) : flushSync(() => setShown(next))),
      0,
    );
    return () => clearTimeout(timer);
  }, [next, shown, timing, now]);
  return now ? next : shown;
}
