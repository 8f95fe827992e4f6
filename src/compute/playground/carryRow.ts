import { allowingNonFinite, carrySplit, tdResiduals, tokenLevelRewards } from "../../core";
import { type Lane, laneOf } from "../../io/playgroundProblem";
import type { PlaygroundRow } from "../../io/playgroundState";
import type { OutputName } from "./outputTables";
import type { PlaygroundResult } from "./playgroundRun";

/** The row in focus split into local sums and carries, its own tokens only, and what was split. */
export interface CarryRow {
  local: Float64Array;
  carried: Float64Array;
  total: Float64Array;
  /**
   * The tokens, ascending, whose local sum or total is NaN or ±∞: where the chart's bands break.
   * Found with the split, so that drawing a long row's carries never walks its tokens on the page.
   */
  gaps: Int32Array;
  /** The least and the greatest finite local sum (null: none is finite): the chart's value axis spans them. */
  localRange: readonly [number, number] | null;
  /** The carry s_c into each chunk (slime's numbering: chunk 0 holds the batch's last C tokens). */
  carriesIn: Float64Array;
  /** The length the row was scanned at (the batch's padded length): the chunks align to it. */
  paddedLength: number;
  chunkSize: number;
  /** The scan's discount and its name: γ, or γλ for GAE's advantages. */
  discount: number;
  discountName: "γ" | "γλ";
  /** What the scan ran over, for the note: "rewards", "token rewards", "TD residuals δ". */
  scanned: string;
}

/** Why the chart shows no carries for an output. */
export type CarryRowResult = { ok: true; row: CarryRow } | { ok: false; why: string };

/** What splitting one row needs: the lanes of that row it reads and the scalars of its result (a worker is sent no more). */
export interface CarryAsk {
  kind: PlaygroundResult["kind"];
  /**
   * The lanes of the row that the scan of `kind` reads, their numbers unchanged, in Float64Arrays:
   * cloned for the worker as one copy of their bytes. Sent as the row's number[] lanes, a
   * 65,536-token row's clone was a 60 ms task of the page (issue 30).
   */
  lanes: Partial<Record<Lane, Float64Array>>;
  /** The row's outcome reward (REINFORCE++). */
  outcome: number;
  length: number;
  /** The batch's padded length. */
  cols: number;
  gamma: number;
  lambd: number;
  klCoef: number;
  /** The run's chunk size: what the chart's chunk lines show. */
  chunkSize: number;
}

/**
 * The ask for row `b`'s split, or why `output` has none: only an output that is the scan's own has
 * carries (discounted and REINFORCE++ returns, GAE advantages; GAE's returns are A + V).
 */
export function carryAsk(
  result: PlaygroundResult,
  rows: PlaygroundRow[],
  b: number,
  output: OutputName,
): CarryAsk | { ok: false; why: string } {
  const row = rows[b];
  const length = result.lengths[b];
  if (!row || length === undefined || rows.length !== result.rows) return { ok: false, why: "no such row" };
  const { kind, cols } = result;
  if (kind === "gae" && output !== "advantages") {
    return {
      ok: false,
      why: "GAE's returns are A + V, not a scan's output; chart the advantages to see the scan's carries.",
    };
  }
  if (kind !== "gae" && output !== "returns") {
    return { ok: false, why: "token rewards are the scan's input, not its output." };
  }
  const { gamma, lambd, klCoef } = result.input;
  const lanes: CarryAsk["lanes"] = {};
  for (const lane of SCANNED_LANES[kind]) lanes[lane] = new Float64Array(laneOf(row, lane));
  const outcome = row.outcome ?? 0;
  return { kind, lanes, outcome, length, cols, gamma, lambd, klCoef, chunkSize: result.ran.chunkSize };
}

/** The lanes each scan is built from (scannedRow). */
const SCANNED_LANES: Record<PlaygroundResult["kind"], readonly Lane[]> = {
  discounted: ["rewards"],
  gae: ["rewards", "values"],
  reinforce_pp: ["kl", "lossMask"],
};

/**
 * The split of one row, computed for that row only (the batch's other rows are never touched): the
 * sequence the chunked scan ran over, rebuilt in float64 from the row's float32 inputs exactly as
 * the float64 reference builds it, right-padded to the batch's length, then core's carrySplit:
 * O(T·C/2) float64 multiply-adds, 10⁸ for a long row with a big C.
 */
export function splitCarryRow(ask: CarryAsk): CarryRowResult {
  const { kind, length, cols, gamma, lambd, chunkSize } = ask;
  let x: Float64Array;
  try {
    x = allowingNonFinite(() => scannedRow(ask));
  } catch (error) {
    return { ok: false, why: `the row cannot be scanned: ${(error as Error).message}` };
  }
  const discount = kind === "gae" ? gamma * lambd : gamma;
  const split = carrySplit(x, discount, chunkSize);
  const local = split.local.subarray(0, length);
  const total = split.total.subarray(0, length);
  return {
    ok: true,
    row: {
      local,
      carried: split.carried.subarray(0, length),
      total,
      ...gapsAndRange(local, total),
      carriesIn: split.carriesIn,
      paddedLength: cols,
      chunkSize,
      discount,
      discountName: kind === "gae" ? "γλ" : "γ",
      scanned: kind === "gae" ? "TD residuals δ" : kind === "reinforce_pp" ? "token rewards" : "rewards",
    },
  };
}

/** Where the split of a row is not finite, and the span of its finite local sums (CarryRow). */
export function gapsAndRange(local: Float64Array, total: Float64Array): Pick<CarryRow, "gaps" | "localRange"> {
  const gaps: number[] = [];
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (let t = 0; t < local.length; t++) {
    const v = local[t];
    if (Number.isFinite(v)) {
      if (v < min) min = v;
      if (v > max) max = v;
    }
    if (!Number.isFinite(v) || !Number.isFinite(total[t])) gaps.push(t);
  }
  return { gaps: Int32Array.from(gaps), localRange: min <= max ? [min, max] : null };
}

/** The sequence the chunked scan ran over for one row, float64, right-padded with zeros to `cols`. */
function scannedRow({ kind, lanes, outcome, cols, gamma, klCoef }: CarryAsk): Float64Array {
  const read = (lane: Lane) => {
    const values = lanes[lane];
    if (!values) throw new Error(`the ask has no ${lane}`);
    return values;
  };
  const padded = (values: ArrayLike<number>) => {
    const out = new Float64Array(cols);
    for (let t = 0; t < Math.min(values.length, cols); t++) out[t] = Math.fround(values[t]);
    return out;
  };
  switch (kind) {
    case "discounted":
      return padded(read("rewards"));
    case "gae": {
      const rewards = { rows: 1, cols, data: padded(read("rewards")) };
      const values = { rows: 1, cols, data: padded(read("values")) };
      return tdResiduals(rewards, values, gamma).data;
    }
    case "reinforce_pp": {
      const batch = {
        rewards: [Math.fround(outcome)],
        kl: [read("kl").map(Math.fround)],
        lossMasks: [read("lossMask")],
      };
      // Computed in float64 from float32 inputs and not rounded again: as the float64 reference does.
      const tokens = tokenLevelRewards(batch, klCoef)[0];
      const out = new Float64Array(cols);
      out.set(tokens.subarray(0, cols));
      return out;
    }
  }
}
