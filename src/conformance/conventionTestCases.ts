import {
  type ConventionBatch,
  type ConventionEstimator,
  type ConventionParams,
  LIBRARIES,
  type Library,
  runConvention,
  ScanInputError,
} from "../core";
import { maskWithHoles, normals, seededRandom } from "../core/testRandom";
import type { CaseFile } from "../io/caseSchema";

/**
 * Library-convention case files for tests (no product code imports this): built from core's
 * float64 conventions, so a checker sees files the public one does not cover.
 */

const ESTIMATORS: ConventionEstimator[] = ["reinforce_pp", "gae"];

const list = (row: ArrayLike<number>) => Array.from(row, (x) => (Object.is(x, -0) ? 0 : x));

/** One convention case with core's float64 result as `expected` (or the error core raises). */
export function conventionCase(
  name: string,
  library: Library,
  estimator: ConventionEstimator,
  batch: ConventionBatch<Float64Array>,
  params: ConventionParams,
) {
  let expected: Record<string, number[][]> | null = null;
  let rewardIndex: number[] | undefined;
  let expectError: string | undefined;
  try {
    const r = runConvention(library, estimator, batch, params);
    expected = {
      token_level_rewards: r.tokenLevelRewards.map(list),
      returns: r.returns.map(list),
      advantages: r.advantages.map(list),
    };
    rewardIndex = r.rewardIndex;
  } catch (error) {
    expectError = error instanceof ScanInputError ? error.referenceText : String(error);
  }
  return {
    name,
    kind: "convention",
    library,
    estimator,
    lengths: batch.kl.map((row) => row.length),
    params: {
      gamma: params.gamma,
      ...(estimator === "gae" ? { lambd: params.lambd } : {}),
      kl_coef: params.klCoef,
      normalize: params.normalize,
      ...(library === "openrlhf" ? { reward_clip_range: params.rewardClipRange ?? null } : {}),
    },
    inputs: {
      rewards: list(batch.rewards),
      kl: batch.kl.map(list),
      loss_masks: batch.lossMasks.map((m) => list(m)),
      ...(estimator === "gae" ? { values: (batch.values ?? []).map(list) } : {}),
    },
    ...(rewardIndex ? { reward_index: rewardIndex } : {}),
    expected,
    ...(expectError ? { expect_error: expectError } : {}),
  };
}

/**
 * Batches the public file does not cover: ragged rows (8 up to 700 tokens; `small`: 4 up to 200, for
 * the browser on a software GPU), γ = 0.999; every token
 * after the first masked in turn (one-token segments); rows that end on a masked token (verl's
 * reward lands there); lengths across chunk boundaries; λ = 0; an outcome reward OpenRLHF clips;
 * and the errors core raises (slime's fully masked sequence, verl's whitening of one token).
 */
export function unseenConventionFile(small = false): CaseFile {
  const random = seededRandom(4242);
  const batchOf = (lengths: number[], mask: (L: number, i: number) => number[], rewardScale = 2) => ({
    rewards: Float64Array.from(lengths, () => Math.fround((random() * 2 - 1) * rewardScale)),
    kl: lengths.map((L) => normals(random, L, 0.05)),
    lossMasks: lengths.map(mask),
    values: lengths.map((L) => normals(random, L)),
  });
  const holes = (L: number) => maskWithHoles(random, L);
  const scenarios: { name: string; batch: ConventionBatch<Float64Array>; params: ConventionParams }[] = [
    {
      name: small ? "ragged4_g0.999" : "ragged8_g0.999",
      batch: batchOf(
        Array.from({ length: small ? 4 : 8 }, () => 1 + Math.floor(random() * (small ? 200 : 700))),
        holes,
      ),
      params: { gamma: 0.999, lambd: 0.97, klCoef: 0.02, normalize: true, rewardClipRange: [-10, 10] },
    },
    {
      name: "one_token_segments_g1",
      batch: batchOf([small ? 90 : 300, 41, 2], (L) =>
        Array.from({ length: L }, (_, t) => (t > 0 && t % 2 === 0 ? 0 : 1)),
      ),
      params: { gamma: 1, lambd: 1, klCoef: 0.05, normalize: false, rewardClipRange: null },
    },
    {
      name: "ends_masked_chunk_edges",
      batch: batchOf([128, 129, 257, 6], (L) => Array.from({ length: L }, (_, t) => (t >= L - 2 || t < 3 ? 0 : 1))),
      params: { gamma: 0.99, lambd: 0.95, klCoef: 0.1, normalize: true, rewardClipRange: [-10, 10] },
    },
    {
      name: "lambda0_clipped_reward",
      batch: batchOf([60, 200], holes, 25),
      params: { gamma: 0.9, lambd: 0, klCoef: 0.05, normalize: true, rewardClipRange: [-10, 10] },
    },
  ];
  const cases = scenarios.flatMap(({ name, batch, params }) =>
    LIBRARIES.flatMap((library) =>
      ESTIMATORS.map((estimator) =>
        conventionCase(`${library}_${estimator}_${name}`, library, estimator, batch, params),
      ),
    ),
  );
  const fullyMasked = batchOf([5, 4], (L, i) => (i === 1 ? new Array(L).fill(0) : holes(L)));
  cases.push(
    conventionCase("slime_fully_masked", "slime", "reinforce_pp", fullyMasked, {
      gamma: 0.99,
      klCoef: 0.1,
      normalize: false,
    }),
  );
  const oneToken = batchOf([3], () => [0, 1, 0]);
  cases.push(
    conventionCase("verl_whiten_one_token", "verl", "reinforce_pp", oneToken, {
      gamma: 0.99,
      klCoef: 0.1,
      normalize: true,
    }),
  );
  // Through JSON, as a file is read: -0 written as 0, no typed arrays.
  return JSON.parse(JSON.stringify({ meta: { schema_version: 1, title: "unseen conventions" }, cases }));
}
