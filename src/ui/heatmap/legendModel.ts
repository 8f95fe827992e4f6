import {
  type DecadeScale,
  decadeLabel,
  NON_FINITE_COLOUR,
  PADDING_COLOUR,
  type Rgb,
  ZERO_COLOUR,
} from "../../compute/heatmap/colourScale";
import { type ErrorMetric, type Precision, SCAN_SIDES, type SideNames } from "../../compute/playground/cellErrors";
import type { PooledGrid } from "../../compute/playground/pooling";
import { formatShort } from "../../io/formatNumber";

/** Everything the heatmap legend shows, computed once and drawn both in HTML and into the PNG export. */
export interface LegendModel {
  /** What the colour measures. */
  title: string;
  /** Decade swatches, lowest first. */
  swatches: Rgb[];
  /** Labels of the swatch edges (swatches.length + 1), lowest first; the first gets "≤" when clipped. */
  ticks: string[];
  /** Swatches outside the ramp: only those present in the data, plus zero. */
  keys: {
    kind: "zero" | "nonFinite" | "chunkedOnlyNonFinite" | "padding" | "masked" | "overBound" | "unchecked" | "worst";
    label: string;
    colour: Rgb;
  }[];
  /** One-line notes: domain and scope, binning, the relative error's floor. */
  notes: string[];
}

export interface LegendInput {
  metric: ErrorMetric;
  precision: Precision;
  scale: DecadeScale;
  domain: { min: number; max: number };
  /** What the domain was taken over, e.g. "batch" or "row 3". */
  scope: string;
  grid: PooledGrid;
  relFloor: number;
  /** Which kinds of cell occur, so the legend lists only what is on screen (zero always). */
  present: {
    nonFinite: boolean;
    chunkedOnlyNonFinite?: boolean;
    padding: boolean;
    masked: boolean;
    overBound: boolean;
    /** Some cell's bound is NaN or ±Inf, so it was not checked. */
    unchecked?: boolean;
  };
  hasBound: boolean;
  /** What is compared (default: the chunked scan against the serial reference). */
  sides?: SideNames;
}

/** What the colour measures, e.g. "absolute error |chunked − serial|" or "absolute difference |verl − OpenRLHF|". */
function legendTitle(metric: ErrorMetric, precision: Precision, sides: SideNames): string {
  const { reference, actual } = sides.symbols ?? sides;
  const gap = sides.gap ?? "error";
  switch (metric) {
    case "abs":
      return `absolute ${gap} |${actual} − ${reference}|`;
    case "rel":
      return `relative ${gap} |${actual} − ${reference}| / |${reference}|`;
    case "ulp":
      return `${gap} in ${precision} ulps (units in the last place)`;
  }
}

/** "each pixel: max of 4 tokens" (or "3–4 tokens", "× 2 rows"); null when every cell has its pixel. */
export function binningNote(grid: PooledGrid): string | null {
  if (grid.tokensPerBin <= 1 && grid.rowsPerBin <= 1) return null;
  const span = (starts: Int32Array, widest: number, unit: string) => {
    let narrowest = widest;
    for (let b = 0; b < starts.length - 1; b++) narrowest = Math.min(narrowest, starts[b + 1] - starts[b]);
    const count = narrowest === widest ? String(widest) : `${narrowest}–${widest}`;
    return `${count} ${unit}${widest === 1 ? "" : "s"}`;
  };
  const parts = [span(grid.colStart, grid.tokensPerBin, "token")];
  if (grid.rowsPerBin > 1) parts.push(span(grid.rowStart, grid.rowsPerBin, "row"));
  return `each pixel: max of ${parts.join(" × ")}, so no error hides`;
}

export function legendModel(input: LegendInput): LegendModel {
  const { metric, precision, scale, domain, grid, present } = input;
  const sides = input.sides ?? SCAN_SIDES;
  const ticks: string[] = [];
  for (let k = scale.lo; k <= scale.hi; k++) ticks.push(decadeLabel(k));
  if (scale.clippedBelow) ticks[0] = `≤${ticks[0]}`;
  const keys: LegendModel["keys"] = [{ kind: "zero", label: "0 (exact)", colour: ZERO_COLOUR }];
  // Two marks, not two colours: the lesson of §b.4 is which cells only the chunked scan lost.
  if (present.nonFinite) {
    // Dashed: the reference lost the cell. The float64 serial scan loses only what the chunked scan
    // loses too ("both scans"); of two libraries, the one shown may lose a cell on its own.
    const label = present.chunkedOnlyNonFinite
      ? `NaN / ∞ in ${sides.both ?? sides.reference} (dashed)`
      : "NaN / ∞ (dashed)";
    keys.push({ kind: "nonFinite", label, colour: NON_FINITE_COLOUR });
  }
  if (present.chunkedOnlyNonFinite) {
    const label = `NaN / ∞ in ${sides.actual} only (crossed)`;
    keys.push({ kind: "chunkedOnlyNonFinite", label, colour: NON_FINITE_COLOUR });
  }
  if (present.masked) keys.push({ kind: "masked", label: "masked (hatched)", colour: [120, 120, 120] });
  if (present.padding) keys.push({ kind: "padding", label: "padding", colour: PADDING_COLOUR });
  if (input.hasBound) {
    // "none over bound" only where every measured cell had a bound to be held to.
    const none = present.unchecked ? "none over a finite bound" : "none over bound";
    keys.push({ kind: "overBound", label: present.overBound ? "over bound (▲, outlined)" : none, colour: [0, 0, 0] });
    if (present.unchecked) {
      keys.push({ kind: "unchecked", label: "bound NaN / ∞: not checked (dotted)", colour: [0, 0, 0] });
    }
  }
  if (domain.max > 0) keys.push({ kind: "worst", label: "largest error", colour: [0, 0, 0] });
  const notes = [
    domain.max > 0
      ? `colour domain (${input.scope}): ${formatShort(domain.min)} … ${formatShort(domain.max)}`
      : `colour domain (${input.scope}): every error is 0`,
  ];
  const binning = binningNote(grid);
  if (binning) notes.push(binning);
  if (metric === "rel") notes.push(`denominator at least ${formatShort(input.relFloor)} (ε × largest |serial|)`);
  if (metric === "ulp" && precision === "float32") notes.push("ulps between both values rounded to float32");
  return { title: legendTitle(metric, precision, sides), swatches: scale.swatches, ticks, keys, notes };
}
