import {
  type CpLayout,
  chunkedDiscountedReturns,
  chunkedGae,
  cpLayout,
  cpWhiten,
  discountedByRank,
  gaeByRank,
  type PpoPlacement,
  ppoGaeByRank,
  ppoGaeCp1,
  ppoPlacementNote,
  ppoRewardPlacement,
  reinforcePPByRank,
  reinforcePPReturns,
  ScanInputError,
  type VectorDifference,
  vectorDifference,
} from "../../core";
import { laneOf } from "../../io/playgroundProblem";
import { type Estimator, MAX_CP_PROMPT_LENGTH, MAX_CP_SIZE, type PlaygroundRow } from "../../io/playgroundState";

/** What the panel takes from the playground, and its own two controls. */
export interface CpPanelParams {
  estimator: Estimator;
  gamma: number;
  lambd: number;
  klCoef: number;
  chunkSize: number;
  cpSize: number;
  promptLength: number;
  /** The row's index in the playground's batch: core scans it as a batch of one, its row 0. */
  rowIndex?: number;
}

/**
 * Core's complaint about the one-row batch the panel scans, naming the playground's row instead of
 * row 0 (`kl has a non-finite value at row 0, token 140` → `… at row 1, token 140`).
 */
export function rowInputError(error: ScanInputError, rowIndex = 0): string {
  return error.message.replace(/\b(at row|at index) 0\b/g, `$1 ${rowIndex}`);
}

// Links carry both (the playground's state), so the state's schema holds the limits.
export const MAX_PANEL_CP_SIZE = MAX_CP_SIZE;
export const MAX_PROMPT_LENGTH = MAX_CP_PROMPT_LENGTH;

/** Why a typed prompt length is refused, or null (never clamped: the last good one stays in use). */
export function promptLengthProblem(text: string): string | null {
  if (!/^\d+$/.test(text.trim())) return "the prompt length is a whole number of tokens, at least 1";
  const value = Number(text.trim());
  if (value < 1)
    return "the prompt length must be at least 1: response token 0 is predicted by the prompt's last logit";
  if (value > MAX_PROMPT_LENGTH) return `the prompt length is at most ${MAX_PROMPT_LENGTH} tokens here`;
  return null;
}

/** Each rank's share of one sample and of the scan's input and output. */
export interface CpRankView {
  rank: number;
  /** The rank's two chunks, in its local order. */
  chunks: [number, number];
  localLength: number;
  /** The scanned input the rank holds, and the output it keeps, in local order. */
  localInput: Float32Array;
  localOutput: Float32Array;
}

export interface CpEquality {
  /** Every value of the reassembled result has the bits of cp_size 1's. */
  equal: boolean;
  identical: number;
  total: number;
  firstDifference: number | null;
}

export interface CpPpoView {
  placement: PpoPlacement;
  note: string;
  /** Advantages of slime's PPO path against cp_size 1 (only where the reward is misplaced). */
  difference: VectorDifference | null;
  /** What slime raises instead (rank 0 with no response token), or a bad input. */
  error: string | null;
}

export interface CpWhitenRow {
  rank: number;
  tokens: number;
  /** Unmasked tokens the rank's own statistics count. */
  n: number;
  group: { mean: number; std: number } | null;
  own: { mean: number; std: number } | null;
  /** Largest |group-whitened − own-whitened| over the rank's tokens; null where one is missing. */
  maxDifference: number | null;
  /** The rank's whitened values both ways, in local order (null where N = 0). */
  groupWhitened: Float32Array | null;
  ownWhitened: Float32Array | null;
}

export interface CpPanelModel {
  layout: CpLayout;
  inputLabel: string;
  outputLabel: string;
  /** The scanned input after the gather, and the output every rank computes (all R tokens). */
  gathered: Float32Array;
  output: Float32Array;
  ranks: CpRankView[];
  equality: CpEquality;
  ppo: CpPpoView;
  whitening: { rows: CpWhitenRow[]; error: string | null };
}

export type CpPanelResult = { ok: true; model: CpPanelModel } | { ok: false; message: string };

const LABELS: Record<Estimator, { input: string; output: string }> = {
  reinforce_pp: { input: "per-token KL", output: "returns" },
  gae: { input: "rewards", output: "advantages" },
  discounted: { input: "rewards", output: "returns" },
};

const f32 = (values: ArrayLike<number>) => Float32Array.from(values, Math.fround);

/**
 * Everything the panel shows for one row (one sample), in float32 as slime computes it: the layout,
 * each rank's pieces of the estimator's input and output, the reassembled result against cp_size 1
 * (computed here, bit for bit), slime's PPO reward placement, and whitening both ways.
 */
export function cpPanelModel(row: PlaygroundRow, params: CpPanelParams): CpPanelResult {
  if (row.length === 0) return { ok: false, message: "The selected row has no tokens: give it a length first." };
  try {
    const layout = cpLayout(params.promptLength + row.length, row.length, params.cpSize);
    const options = { chunkSize: params.chunkSize };
    const scan = scanBothWays(row, layout, params, options);
    const ranks = layout.ranks.map(
      (rank, r): CpRankView => ({
        rank: r,
        chunks: [rank.pieces[0].chunk, rank.pieces[1].chunk],
        localLength: rank.localLength,
        localInput: scan.localInputs[r],
        localOutput: scan.localOutputs[r],
      }),
    );
    return {
      ok: true,
      model: {
        layout,
        inputLabel: LABELS[params.estimator].input,
        outputLabel: LABELS[params.estimator].output,
        gathered: scan.gathered,
        output: scan.output,
        ranks,
        equality: equality(scan.reassembled, scan.cp1),
        ppo: ppoView(row, layout, params, options),
        whitening: whitening(layout, scan.output, laneOf(row, "lossMask")),
      },
    };
  } catch (error) {
    if (error instanceof ScanInputError)
      return {
        ok: false,
        message: `Row ${params.rowIndex ?? 0} cannot be scanned: ${rowInputError(error, params.rowIndex)}`,
      };
    if (error instanceof Error && error.name === "CpLayoutError") return { ok: false, message: error.message };
    throw error;
  }
}

interface BothWays {
  localInputs: Float32Array[];
  localOutputs: Float32Array[];
  gathered: Float32Array;
  output: Float32Array;
  reassembled: Float32Array;
  cp1: Float32Array;
}

/** The estimator rank by rank, and the same row at cp_size 1 (B = 1 on both sides). */
function scanBothWays(
  row: PlaygroundRow,
  layout: CpLayout,
  params: CpPanelParams,
  options: { chunkSize: number },
): BothWays {
  const { gamma, lambd, klCoef } = params;
  const one = { rows: 1, cols: row.length };
  if (params.estimator === "reinforce_pp") {
    const batch = {
      rewards: [Math.fround(row.outcome ?? 0)],
      kl: [f32(laneOf(row, "kl"))],
      lossMasks: [laneOf(row, "lossMask")],
    };
    const run = reinforcePPByRank(batch, [layout], klCoef, gamma, options);
    return {
      localInputs: run.localKl.map((rows) => rows[0]),
      localOutputs: run.localReturns.map((rows) => rows[0]),
      gathered: run.gatheredKl[0],
      output: run.scan.returns[0],
      reassembled: run.reassembled[0],
      cp1: reinforcePPReturns(batch, klCoef, gamma, options).returns[0],
    };
  }
  const rewards = f32(laneOf(row, "rewards"));
  if (params.estimator === "gae") {
    const values = f32(laneOf(row, "values"));
    const run = gaeByRank([rewards], [values], [layout], gamma, lambd, options);
    const cp1 = chunkedGae({ ...one, data: rewards }, { ...one, data: values }, gamma, lambd, options).advantages.data;
    return pick(run, cp1);
  }
  const run = discountedByRank([rewards], [layout], gamma, options);
  return pick(run, chunkedDiscountedReturns({ ...one, data: rewards }, gamma, options).returns.data);
}

function pick(
  run: {
    localInputs: Float32Array[][];
    localOutputs: Float32Array[][];
    gatheredInputs: Float32Array[];
    outputs: Float32Array[];
    reassembled: Float32Array[];
  },
  cp1: Float32Array,
): BothWays {
  return {
    localInputs: run.localInputs.map((rows) => rows[0]),
    localOutputs: run.localOutputs.map((rows) => rows[0]),
    gathered: run.gatheredInputs[0],
    output: run.outputs[0],
    reassembled: run.reassembled[0],
    cp1,
  };
}

/** Value by value, the bits of the reassembled result against cp_size 1's. */
export function equality(reassembled: Float32Array, cp1: Float32Array): CpEquality {
  const a = new Uint32Array(reassembled.buffer, reassembled.byteOffset, reassembled.length);
  const b = new Uint32Array(cp1.buffer, cp1.byteOffset, cp1.length);
  let identical = 0;
  let firstDifference: number | null = null;
  for (let t = 0; t < b.length; t++) {
    if (t < a.length && a[t] === b[t]) identical++;
    else firstDifference ??= t;
  }
  return { equal: a.length === b.length && identical === b.length, identical, total: b.length, firstDifference };
}

/** slime's PPO path on the row's KL, values and outcome; advantages compared only where the reward moves. */
function ppoView(
  row: PlaygroundRow,
  layout: CpLayout,
  params: CpPanelParams,
  options: { chunkSize: number },
): CpPpoView {
  const placement = ppoRewardPlacement(layout);
  const note = ppoPlacementNote(layout);
  if (placement.correct) return { placement, note, difference: null, error: null };
  const sample = { kl: f32(laneOf(row, "kl")), values: f32(laneOf(row, "values")), reward: row.outcome ?? 0 };
  try {
    const cp = ppoGaeByRank([sample], [layout], params.klCoef, params.gamma, params.lambd, options);
    const cp1 = ppoGaeCp1([sample], params.klCoef, params.gamma, params.lambd, options);
    return { placement, note, difference: vectorDifference(cp.reassembled[0], cp1.advantages[0]), error: null };
  } catch (error) {
    if (error instanceof ScanInputError) {
      const text = `${error.referenceType}: ${rowInputError(error, params.rowIndex)}`;
      return { placement, note, difference: null, error: text };
    }
    throw error;
  }
}

function whitening(layout: CpLayout, output: Float32Array, mask: ArrayLike<number>): CpPanelModel["whitening"] {
  const run = cpWhiten([layout], [output], [mask]);
  const groupStats = run.group.stats;
  const meanStd = (s: { mean: number; variance: number } | null) =>
    s ? { mean: s.mean, std: Math.sqrt(Math.max(s.variance, 0)) } : null;
  const rows = layout.ranks.map((rank, r): CpWhitenRow => {
    const own = run.perRank.whitened[r]?.[0] ?? null;
    const group = run.group.whitened?.[r][0] ?? null;
    let maxDifference: number | null = null;
    if (own && group) {
      maxDifference = 0;
      for (let t = 0; t < own.length; t++) maxDifference = Math.max(maxDifference, Math.abs(own[t] - group[t]));
    }
    return {
      rank: r,
      tokens: rank.localLength,
      n: run.perRank.stats[r]?.n ?? 0,
      group: meanStd(groupStats),
      own: meanStd(run.perRank.stats[r]),
      maxDifference,
      groupWhitened: group,
      ownWhitened: own,
    };
  });
  return { rows, error: groupStats ? null : "No unmasked token in this sample: slime raises ValueError (N = 0)." };
}
