import type { FloatArray } from "../batch";
import { checkDiscount, checkFiniteRow, ScanInputError } from "../validation";
import { openrlhfGae, openrlhfReturns, slimeGae, slimeReturns, verlGae, verlReturns } from "./conventionScans";
import { conventionTokenRewards } from "./tokenRewards";
import type { ConventionBatch, ConventionEstimator, ConventionParams, ConventionResult, Library } from "./types";
import { whitenAdvantages } from "./whiten";

/**
 * Token-level rewards, returns and advantages as slime, OpenRLHF or verl computes them for
 * REINFORCE++ or GAE on the same inputs: where the reward goes, how mask-0 tokens are treated
 * and how advantages are whitened are the three places they differ.
 */
export function runConvention<A extends FloatArray>(
  library: Library,
  estimator: ConventionEstimator,
  batch: ConventionBatch<A>,
  params: ConventionParams,
): ConventionResult<A> {
  checkConventionInputs(estimator, batch, params);
  const { gamma } = params;
  const masks = batch.lossMasks;
  const { tokenLevelRewards: tokens, rewardIndex } = conventionTokenRewards(library, estimator, batch, params);

  let returns: A[];
  let advantages: A[];
  if (estimator === "reinforce_pp") {
    returns =
      library === "slime"
        ? slimeReturns(tokens, gamma)
        : library === "openrlhf"
          ? openrlhfReturns(tokens, masks, gamma)
          : verlReturns(tokens, masks, gamma);
    advantages = returns;
    if (params.normalize) advantages = whitenAdvantages(library, advantages, masks);
    // verl re-masks its REINFORCE++ advantages (with whitening on or off).
    if (library === "verl") advantages = advantages.map((row, i) => row.map((a, t) => a * masks[i][t]) as A);
  } else {
    const values = batch.values as A[];
    const lambd = params.lambd as number;
    const result =
      library === "slime"
        ? slimeGae(tokens, values, gamma, lambd)
        : library === "openrlhf"
          ? openrlhfGae(tokens, values, masks, gamma, lambd)
          : verlGae(tokens, values, masks, gamma, lambd);
    returns = result.returns;
    advantages = params.normalize ? whitenAdvantages(library, result.advantages, masks) : result.advantages;
  }
  return { tokenLevelRewards: tokens, returns, advantages, rewardIndex };
}

/** Every check core makes on a convention's inputs before computing it, in core's order. */
export function checkConventionInputs(
  estimator: ConventionEstimator,
  batch: ConventionBatch,
  params: ConventionParams,
): void {
  checkDiscount(params.gamma, "gamma");
  checkDiscount(params.klCoef, "kl_coef");
  const B = batch.rewards.length;
  if (batch.kl.length !== B || batch.lossMasks.length !== B) {
    throw new ScanInputError(
      `rewards, kl and loss_masks must have one entry per sequence, got ${B}, ${batch.kl.length} and ${batch.lossMasks.length}`,
    );
  }
  if (estimator === "gae") {
    checkDiscount(params.lambd ?? Number.NaN, "lambd");
    if (!batch.values || batch.values.length !== B) {
      throw new ScanInputError(`GAE needs values for each of the ${B} sequences, got ${batch.values?.length ?? 0}`);
    }
  }
  batch.kl.forEach((kl, i) => {
    checkFiniteRow(kl, "kl", i);
    checkOutcome(batch.rewards[i], i);
    const mask = batch.lossMasks[i];
    if (mask.length !== kl.length) {
      throw new ScanInputError(`kl[${i}] has ${kl.length} tokens but loss_masks[${i}] has ${mask.length}`);
    }
    for (let t = 0; t < mask.length; t++) {
      if (mask[t] !== 0 && mask[t] !== 1) {
        throw new ScanInputError(`loss_masks[${i}] has ${String(mask[t])} at token ${t}; a mask is 0 or 1`);
      }
    }
    const values = batch.values?.[i];
    if (values) {
      if (values.length !== kl.length) {
        throw new ScanInputError(`values[${i}] has ${values.length} tokens but kl[${i}] has ${kl.length}`);
      }
      checkFiniteRow(values, "values", i);
    }
  });
}

/** An outcome reward is checked as a one-value row, so `allowingNonFinite` lets it through too. */
function checkOutcome(reward: number, sequence: number): void {
  if (Number.isFinite(reward)) return;
  try {
    checkFiniteRow([reward], "rewards", sequence);
  } catch {
    throw new ScanInputError(`rewards has a non-finite value at sequence ${sequence}: ${reward}`);
  }
}
