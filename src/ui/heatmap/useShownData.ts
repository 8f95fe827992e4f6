import { useEffect, useRef, useState } from "react";
import {
  type CellErrors,
  type ErrorMetric,
  emptyCellErrors,
  measureRows,
  type Precision,
} from "../../compute/playground/cellErrors";
import { type PooledGrid, type PoolInput, poolByMax, poolJob } from "../../compute/playground/pooling";
import { runInTasks } from "../budgetedTasks";

/** The data one heatmap picture is drawn from, with its per-cell errors. */
export interface ShownData {
  rows: number;
  cols: number;
  lengths: ArrayLike<number>;
  reference: ArrayLike<number>;
  actual: ArrayLike<number>;
  lossMask?: ArrayLike<number>;
  bound?: ArrayLike<number>;
  chunkBoundaries: number[];
  metric: ErrorMetric;
  precision: Precision;
  errors: CellErrors;
  /** The errors pooled for the bins the layout offered when they were measured. */
  pooled: { maxBinsX: number; maxBinsY: number; grid: PooledGrid };
}

export type HeatmapData = Omit<ShownData, "errors" | "pooled">;

/** The most bins across and down the heatmap's layout offers. */
export interface Bins {
  maxBinsX: number;
  maxBinsY: number;
}

const KEYS = [
  "rows",
  "cols",
  "lengths",
  "reference",
  "actual",
  "lossMask",
  "bound",
  "chunkBoundaries",
  "metric",
  "precision",
] as const satisfies readonly (keyof HeatmapData)[];

/** True when every input is the same (by identity) as the one the picture was drawn from. */
export function sameData(a: HeatmapData, b: HeatmapData): boolean {
  return KEYS.every((k) => a[k] === b[k]);
}

function poolInput(shown: Omit<ShownData, "pooled">, bins: Bins): PoolInput {
  const { rows, cols, lengths, errors, lossMask, bound } = shown;
  return {
    reference: shown.reference,
    rows,
    cols,
    lengths,
    error: errors.error,
    overBound: bound ? errors.overBound : undefined,
    lossMask,
    ...bins,
  };
}

export function poolShown(shown: Omit<ShownData, "pooled">, bins: Bins): PooledGrid {
  return poolByMax(poolInput(shown, bins));
}

/** About this many cells are measured (or pooled) per task (a few milliseconds), never less than a row. */
export const CELLS_PER_SLICE = 16384;

/**
 * Measures the data a slice of rows per call of step(), then pools it a slice of rows per call;
 * step() returns the shown data once every row is pooled, else null.
 */
export function measureJob(
  data: HeatmapData,
  bins: () => Bins,
  cellsPerSlice = CELLS_PER_SLICE,
): { step(): ShownData | null } {
  const { rows, cols, lengths, reference, actual, lossMask, bound, chunkBoundaries, metric, precision } = data;
  const input = { rows, cols, lengths, reference, actual, bound, metric, precision };
  const errors = emptyCellErrors(input);
  const rowsPerSlice = Math.max(1, Math.floor(cellsPerSlice / Math.max(1, cols)));
  const shown = { rows, cols, lengths, reference, actual, lossMask, bound, chunkBoundaries, metric, precision, errors };
  let measured = 0;
  let pooled = 0;
  let pool: { at: Bins; job: ReturnType<typeof poolJob> } | null = null;
  return {
    step() {
      if (measured < rows) {
        measureRows(input, errors, measured, measured + rowsPerSlice);
        measured += rowsPerSlice;
        // Pooling starts in a step (a task) of its own, unless the whole batch fits one step.
        if (measured < rows || cellsPerSlice < rows * cols) return null;
      }
      if (!pool) {
        const at = bins();
        pool = { at, job: poolJob(poolInput(shown, at)) };
      }
      pool.job.addRows(pooled, pooled + rowsPerSlice);
      pooled += rowsPerSlice;
      if (pooled < rows) return null;
      return { ...shown, pooled: { ...pool.at, grid: pool.job.finish() } };
    },
  };
}

/**
 * The most cells a heatmap measures in the render that brings them (its first picture included):
 * 16 × 8192, about 5 ms of measuring, pooling and drawing on the 2-core machine. In tasks of its
 * own such a picture came 10–30 ms after the charts (its tasks took turns with theirs and with frames).
 */
export const NOW_CELLS = 2 ** 17;

/** No rows of the same kind of data: the picture shown while a large first one is measured. */
function emptyLike(data: HeatmapData): HeatmapData {
  return {
    ...data,
    rows: 0,
    lengths: [],
    reference: new Float64Array(0),
    actual: new Float64Array(0),
    lossMask: data.lossMask ? new Uint8Array(0) : undefined,
    bound: data.bound ? new Float64Array(0) : undefined,
  };
}

/** All rows at once (the first picture). */
export function measure(data: HeatmapData, bins: Bins): ShownData {
  const job = measureJob(data, () => bins, Number.POSITIVE_INFINITY);
  let shown = job.step();
  while (!shown) shown = job.step();
  return shown;
}

/**
 * The heatmap's data. A batch of up to NOW_CELLS cells is measured in the render that brings it,
 * so that its picture is drawn in the same frame as the rest of the result. A larger one lags the
 * props by a task or more: a new 64 × 32768 result costs tens of milliseconds in cell
 * errors and as much again in pooling and drawing, and measured in the task that delivers the result
 * it would add to the charts' work and make one long task. So the errors are measured, then pooled,
 * a slice of rows at a time in tasks of a few milliseconds each (budgetedTasks.ts), and the picture
 * is drawn in the render that follows. Until then the last picture (and its readouts) stays,
 * consistent with the data it was drawn from. Several results arriving at once are measured once,
 * for the newest.
 */
export function useShownData(props: HeatmapData, bins: Bins): ShownData {
  // A large batch's first picture (a 64 × 8192 dump in the run view took 65 ms to measure and 105 ms
  // to draw in the task that mounted it) starts empty and is measured in slices like every later one.
  const now = props.rows * props.cols <= NOW_CELLS;
  const picture = useRef<ShownData | null>(null);
  picture.current ??= measure(now ? props : emptyLike(props), bins);
  if (now && !sameData(picture.current, props)) {
    // A pure function of the props, kept to be shown until the next ones are measured.
    picture.current = measure(props, bins);
  }
  // Tells the render that a picture measured in tasks is ready.
  const [, setMeasured] = useState(0);
  const latest = useRef(props);
  latest.current = props;
  const latestBins = useRef(bins);
  latestBins.current = bins;
  const shown = picture.current;
  const stale = !sameData(shown, props);
  const { rows, cols, lengths, reference, actual, lossMask, bound, chunkBoundaries, metric, precision } = props;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the inputs name when to measure; latest holds them
  useEffect(() => {
    if (!stale) return;
    let job: ReturnType<typeof measureJob> | null = null;
    return runInTasks(() => {
      job ??= measureJob(latest.current, () => latestBins.current);
      const done = job.step();
      if (done) {
        picture.current = done;
        setMeasured((n) => n + 1);
      }
      return done !== null;
    });
  }, [stale, rows, cols, lengths, reference, actual, lossMask, bound, chunkBoundaries, metric, precision]);
  return shown;
}
