/**
 * Marks on the page's performance timeline (`performance.mark("scanlab:<step>")`) as an edit's run
 * goes by: the engine asked and answered, the final result ready, and each part of the results drawn.
 * `npm run bench:ui` reads them to say where an edit's time went, and a trace shows them on its
 * timeline (DevTools' Timings track). Only the newest mark of each step is kept, so that a long
 * session's slider drags do not pile up entries; a mark costs about a microsecond.
 */
export type Step =
  /** A teaching-size batch: core's result computed at once, in the edit's layout effect. */
  | "core-result-ready"
  /** Every part of the results has drawn core's result (the first redraw). */
  | "core-result-drawn"
  /** The chunked side's request left for its worker (the engine's, or core's at big sizes). */
  | "engine-asked"
  /** Its answer is back on the main thread. */
  | "engine-answered"
  /** The final result of the run, its summary included, is handed to the view. */
  | "result-ready"
  /** The results panel's returns chart, error chart and heatmap have each drawn the result on screen. */
  | "returns-drawn"
  | "error-drawn"
  | "heatmap-drawn"
  /** Every part has drawn it: `results` is no longer aria-busy. */
  | "all-drawn";

export const STEP_PREFIX = "scanlab:";

export function markStep(step: Step): void {
  const name = `${STEP_PREFIX}${step}`;
  performance.clearMarks(name);
  performance.mark(name);
}
