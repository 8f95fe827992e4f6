import { LIBRARY_LABELS } from "../../../compute/conventions/conventionDifferences";
import type { ConventionOutput } from "../../../compute/conventions/conventionRun";
import type { ConventionView } from "../../../compute/conventions/conventionView";
import { countText } from "../../../io/countText";
import { formatShort } from "../../../io/formatNumber";
import { FLOAT32_STYLE, LIBRARY_STYLE, type OverlayLine } from "./conventionSeries";

export const OUTPUT_TITLES: Record<ConventionOutput, string> = {
  returns: "Returns",
  advantages: "Advantages",
  tokenLevelRewards: "Token rewards",
};

/**
 * The lines of the overlay chart for one row: every library that ran, in float64; with no
 * library to compare, the shown one in float64 and in float32 instead.
 */
export function overlayLines(view: ConventionView, row: number, output: ConventionOutput): OverlayLine[] {
  const length = view.lengths[row] ?? 0;
  const slice = (table: Float32Array | Float64Array) => table.subarray(row * view.cols, row * view.cols + length);
  const lines: OverlayLine[] = view.runs.flatMap((run) =>
    run.ok
      ? [
          {
            key: run.library,
            label: `${LIBRARY_LABELS[run.library]} float64`,
            ...LIBRARY_STYLE[run.library],
            values: slice(run.tables[output]),
          },
        ]
      : [],
  );
  const f32 = view.float32?.run;
  if (view.libraries.length === 1 && f32?.ok) {
    lines.push({
      key: "f32",
      label: `${LIBRARY_LABELS[f32.library]} float32 (${view.float32?.backend})`,
      ...FLOAT32_STYLE,
      values: slice(f32.tables[output]),
    });
  }
  return lines;
}

/**
 * The float32 verdict of the library shown, from this run's numbers: "verl in float32 (core
 * float32): max |float32 − float64| 3.1e-7 over 2,064 values, every one within its own error
 * bound (worst: 0.12 of it)". A library that refused the input says so instead.
 */
export function checkSentence(view: ConventionView): string {
  const shown = view.runs[0];
  if (!shown) return "";
  const name = LIBRARY_LABELS[shown.library];
  if (!shown.ok) return `${name} refuses these inputs: ${shown.error}`;
  const run = view.float32;
  if (!run) return `${name}: no float32 run yet.`;
  if (!run.run.ok) return `${name} in float32 (${run.backend}) refuses these inputs: ${run.run.error}`;
  const check = view.check;
  if (!check) return `${name} in float32 (${run.backend}): no error bound for this run.`;
  const { float64, float32, both } = check.nonFinite;
  const leftOut = float64 + float32 - both;
  const head = `${name} in float32 (${run.backend}) against float64:`;
  // NaN and ±Inf took leftOut elements: they are named apart, never given an error figure or a verdict.
  const lost =
    leftOut > 0
      ? ` NaN / ∞ elements, left out: ${countText(leftOut)} (float64 ${countText(float64)}, float32 ${countText(float32)}, both ${countText(both)}).`
      : "";
  if (check.cells === 0) return `${head} no element where both are finite, so nothing to judge.${lost}`;
  const where = leftOut > 0 ? " where both are finite" : "";
  const verdict =
    check.overBound === 0
      ? `every one within its own error bound (worst: ${formatShort(check.worstFraction)} of it)`
      : `▲ ${countText(check.overBound)} over their error bound`;
  return `${head} max |float32 − float64| ${formatShort(check.maxAbs)} over ${countText(check.cells)} values${where}, ${verdict}.${lost}`;
}
