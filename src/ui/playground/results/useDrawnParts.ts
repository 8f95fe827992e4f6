import { useCallback, useLayoutEffect, useMemo, useRef } from "react";
import { markStep } from "../../stepMarks";

/** The parts of the results panel that draw a result. */
export type Part = "returns" | "error" | "heatmap";

/**
 * Whether every part shows what it was handed: each part reports the very array it last drew (a
 * chart its line's values, the heatmap its chunked values), and a part that was handed null has nothing
 * to draw (a row with no tokens has no charts).
 */
export function everyPartDrawn(wanted: Record<Part, unknown>, reported: Record<Part, unknown>): boolean {
  return (Object.keys(wanted) as Part[]).every((part) => wanted[part] === null || reported[part] === wanted[part]);
}

/**
 * Tells `onDrawn` a result once every part of the panel shows it (everyPartDrawn), once per
 * result. Checked after each report and in a layout effect, so that a result whose parts all drew
 * in the render that brought it (a teaching-size batch) is told in that commit. Returns each
 * part's report callback, stable for the panel's life.
 */
export function useDrawnParts<R>(
  result: R,
  onDrawn: (result: R) => void,
  wanted: Record<Part, unknown>,
): Record<Part, (drawn: unknown) => void> {
  const reported = useRef<Record<Part, unknown>>({ returns: null, error: null, heatmap: null });
  const latest = useRef({ result, onDrawn, wanted });
  latest.current = { result, onDrawn, wanted };
  const told = useRef<R | null>(null);
  const check = useCallback(() => {
    const { result, onDrawn, wanted } = latest.current;
    if (told.current === result || !everyPartDrawn(wanted, reported.current)) return;
    told.current = result;
    markStep("all-drawn");
    onDrawn(result);
  }, []);
  useLayoutEffect(check);
  return useMemo(() => {
    const report = (part: Part) => (drawn: unknown) => {
      reported.current[part] = drawn;
      markStep(`${part}-drawn`);
      check();
    };
    return { returns: report("returns"), error: report("error"), heatmap: report("heatmap") };
  }, [check]);
}
