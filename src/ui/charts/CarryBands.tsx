import type { Scale } from "./TokenPlot";

/**
 * The returns chart's carries: for the row in focus, each chunk's local sum (a line that restarts
 * at every chunk) and, from it up or down to the return, a band: the part carried in from the later
 * chunks, `G_t − local_t = d^(k+1)·s_c`. Drawn through the chart's own scales, under its lines.
 */
export interface CarryParts {
  local: ArrayLike<number>;
  carried: ArrayLike<number>;
  total: ArrayLike<number>;
  /** Token indices where a chunk starts, ascending (the split's chunks, which the batch's scan used). */
  chunkStarts: readonly number[];
  /** Tokens, ascending, whose local sum or total is NaN or ±∞: no band or line is drawn there. */
  gaps: ArrayLike<number>;
  /** The least and greatest finite local sum (null: none): the value axis spans them. */
  localRange: readonly [number, number] | null;
}

/** Okabe–Ito orange for the local sums, sky blue for the carried band: apart from the chart's blue and vermilion lines. */
export const CARRY_STYLE = {
  local: { colour: "#E69F00", width: 1.5 },
  band: { colour: "#56B4E9", opacity: 0.4 },
} as const;

/** Every `stride`-th token of a long row is drawn (a chunk's first and last always): about one point per bucket. */
export function carryStride(length: number, buckets: number): number {
  return Math.max(1, Math.ceil(length / Math.max(1, Math.floor(buckets))));
}

/**
 * The tokens drawn, as runs: within one chunk, between the split's gaps (NaN or ±∞), sampled every
 * `stride` tokens with the run's ends kept. A band never spans two chunks (the local sum restarts).
 * Only the tokens drawn are touched: O(chunks + gaps + length / stride), not O(length).
 */
export function carryRuns(parts: CarryParts, length: number, stride: number): number[][] {
  const runs: number[][] = [];
  const starts = parts.chunkStarts.filter((t) => t > 0 && t < length);
  const edges = [0, ...starts, length];
  const { gaps } = parts;
  let g = 0;
  for (let c = 0; c + 1 < edges.length; c++) {
    const first = edges[c];
    const end = edges[c + 1] - 1;
    for (let from = first; from <= end; ) {
      while (g < gaps.length && gaps[g] < from) g++;
      const to = g < gaps.length && gaps[g] <= end ? gaps[g] - 1 : end;
      if (to >= from) {
        // The run's first token, every stride-th of its chunk, and its last.
        const run = [from];
        for (let t = from + 1 + ((stride - ((from + 1 - first) % stride)) % stride); t < to; t += stride) run.push(t);
        if (to > from) run.push(to);
        runs.push(run);
      }
      from = to + 2;
    }
  }
  return runs;
}

const round = (px: number) => Math.round(px * 100) / 100;

/**
 * One closed shape per run, along the total and back along the local sum: its height is the carry.
 * A run of one token is a vertical stroke (the shape's outline draws it).
 */
export function bandPath(runs: number[][], parts: CarryParts, x: Scale, y: Scale): string {
  const out: string[] = [];
  for (const run of runs) {
    const upper = run.map((t) => `${round(x(t))},${round(y(parts.total[t]))}`);
    const lower = run.map((t) => `${round(x(t))},${round(y(parts.local[t]))}`).reverse();
    out.push(`M${[...upper, ...lower].join("L")}Z`);
  }
  return out.join("");
}

/** The local sums, one line per run (a lone token as a dot: a zero-length segment with round caps). */
export function localPath(runs: number[][], parts: CarryParts, x: Scale, y: Scale): string {
  return runs
    .map((run) => {
      const points = run.map((t) => `${round(x(t))},${round(y(parts.local[t]))}`);
      return `M${points.join("L")}${run.length === 1 ? "h0" : ""}`;
    })
    .join("");
}

/** The carries under the returns chart's lines, through its scales. */
export function CarryBands({ parts, runs, x, y }: { parts: CarryParts; runs: number[][]; x: Scale; y: Scale }) {
  return (
    <g className="carry-bands" data-testid="carry-bands">
      <path
        d={bandPath(runs, parts, x, y)}
        fill={CARRY_STYLE.band.colour}
        fillOpacity={CARRY_STYLE.band.opacity}
        stroke={CARRY_STYLE.band.colour}
        strokeWidth={1}
        strokeLinejoin="round"
      />
      <path
        d={localPath(runs, parts, x, y)}
        fill="none"
        stroke={CARRY_STYLE.local.colour}
        strokeWidth={CARRY_STYLE.local.width}
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </g>
  );
}
