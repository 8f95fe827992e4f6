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
  const lane = (row: PlaygroundRow, name: "kl" | "values") => arrayOf(precision, laneOf(row, name).map(Math.fround));
  const batch: ConventionBatch = {
    rewards: rows.map((row) => Math.fround(row.outcome ?? 0)),
    kl: rows.map((row) => lane(row, "kl")),
    lossMasks: rows.map((row) => laneOf(row, "lossMask")),
    ...(estimator === "gae" ? { values: rows.map((row) => lane(row, "values")) } : {}),
  };
  return { estimator, batch, params: conventionParams(state) };
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
