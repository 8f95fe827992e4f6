import {
  arrayOf,
  type ConventionBatch,
  type ConventionEstimator,
  type ConventionParams,
  type FloatArray,
  type Precision,
} from "../core";
import { laneOf, materializeRows } from "./playgroundProblem";
import {
  type ConventionLibrary,
  type ConventionSettings,
  DEFAULT_CONVENTION,
  type PlaygroundRow,
  type PlaygroundState,
} from "./playgroundState";

/** The state's convention settings (older links and states have none: the defaults). */
export function conventionOf(state: PlaygroundState): ConventionSettings {
  return state.convention ?? DEFAULT_CONVENTION;
}

/** REINFORCE++ and GAE have library conventions; plain discounted returns do not. */
export function conventionEstimator(state: Pick<PlaygroundState, "estimator">): ConventionEstimator | null {
  return state.estimator === "discounted" ? null : state.estimator;
}

/** The library shown first, then the ones compared with it. */
export function conventionLibraries(settings: ConventionSettings): ConventionLibrary[] {
  return [settings.library, ...settings.compare.filter((other) => other !== settings.library)];
}

export interface ConventionInputs<A extends FloatArray = FloatArray> {
  estimator: ConventionEstimator;
  batch: ConventionBatch<A>;
  params: ConventionParams;
}

/**
 * The state's rows as a trainer hands them to each library: the outcome reward per row, the KL,
 * loss-mask and (GAE) value lanes, in the precision of the arrays. Inputs are rounded to float32
 * first, as the case schema requires, so float64 and float32 runs see the same numbers; γ, λ and
 * β stay exact. The rewards lane is not read: each library forms its own token rewards from the
 * KL and the outcome. Null for discounted returns, which have no convention.
 */
export function stateToConvention(
  state: PlaygroundState,
  precision: Precision,
  rows: PlaygroundRow[] = materializeRows(state),
): ConventionInputs | null {
  const estimator = conventionEstimator(state);
  if (!estimator) return null;
  const batch: ConventionBatch = {
    rewards: rows.map((row) => Math.fround(row.outcome ?? 0)),
    kl: rows.map((row) => roundedLane(row, "kl", precision)),
    lossMasks: rows.map((row) => laneOf(row, "lossMask")),
    ...(estimator === "gae" ? { values: rows.map((row) => roundedLane(row, "values", precision)) } : {}),
  };
  return { estimator, batch, params: conventionParams(state) };
}

/**
 * A row's KL or value lane rounded to float32, in an array of `precision` (zeros where the row has
 * no such lane). One loop straight into the typed array: mapping a plain array first, often a holey
 * one of zeros, cost the main thread about 40 ms at 16 × 8192.
 */
function roundedLane(row: PlaygroundRow, name: "kl" | "values", precision: Precision): FloatArray {
  const values = row[name];
  const out = arrayOf(precision, values?.length ?? row.length);
  if (values) for (let t = 0; t < values.length; t++) out[t] = Math.fround(values[t]);
  return out;
}

/** γ, λ (GAE), β, whitening and OpenRLHF's reward clip, as core's runConvention takes them. */
export function conventionParams(state: PlaygroundState): ConventionParams {
  const { normalize, rewardClip } = conventionOf(state);
  return {
    gamma: state.gamma,
    ...(state.estimator === "gae" ? { lambd: state.lambd } : {}),
    klCoef: state.klCoef,
    normalize,
    rewardClipRange: rewardClip,
  };
}
