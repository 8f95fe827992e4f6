import type { Library } from "../../../core";
import { chartData } from "../../charts/chartSeries";
import { envelopeIndices } from "../../charts/downsample";

/** One line of the overlay: a library's float64 values, or the shown library's float32 run. */
export interface OverlayLine {
  key: string;
  label: string;
  colour: string;
  dash?: string;
  width: number;
  values: ArrayLike<number>;
}

/**
 * Okabe–Ito colours, each library also with its own dash, so the lines differ without colour:
 * slime solid and wide, OpenRLHF dashed, verl dotted. The float32 run is thin and dash-dotted.
 */
export const LIBRARY_STYLE: Record<Library, { colour: string; dash?: string; width: number }> = {
  slime: { colour: "#0072B2", width: 2.5 },
  openrlhf: { colour: "#D55E00", dash: "7 4", width: 1.75 },
  verl: { colour: "#009E73", dash: "2 3", width: 2 },
};
export const FLOAT32_STYLE = { colour: "#CC79A7", dash: "8 3 2 3", width: 1.25 };

export type OverlayPoint = { t: number } & Record<string, number | null>;

/**
 * The points recharts draws for lines sharing one token axis: every token up to a few thousand,
 * beyond that the minimum and maximum of every line per bucket (a spike in any line survives).
 * NaN and infinities become gaps (null).
 */
export function overlayPoints(lines: OverlayLine[], length: number, buckets: number): readonly OverlayPoint[] {
  const idx = envelopeIndices(
    lines.map((line) => line.values),
    length,
    buckets,
  );
  const points: OverlayPoint[] = new Array(idx.length);
  for (let j = 0; j < idx.length; j++) {
    const t = idx[j];
    const point: OverlayPoint = { t };
    for (const line of lines) {
      const v = line.values[t];
      point[line.key] = Number.isFinite(v) ? v : null;
    }
    points[j] = point;
  }
  return chartData(points);
}
