import type { Library } from "../../../core";

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
