import { runConvention, ScanInputError, type SlimeSettings } from "../../core";
import { buildCaseFile } from "../caseBuilder";
import type { CaseFile, ConventionCase } from "../caseSchema";
import { failure, IoError, type IoResult, success } from "../ioError";
import type { UnderstoodDump } from "./dumpTypes";

/**
 * A train dump as one golden case (cases/SCHEMA.md, kind convention, library slime) that
 * `scanlab check` verifies: the whole batch in one case, because slime pads every sample to the
 * longest for its scans and whitens over all of them. Inputs are what slime's estimator read: the
 * reward, the stored `kl` (the case's KL is the per-token KL itself), the loss masks and the
 * critic's values; `expected` is core's float64 slime convention on them, `float32` the dump's own
 * advantages and returns (with token rewards from core's float32 run, which slime does not store).
 * The broadcast estimators (grpo, gspo, cispo, the baseline) have no scan and no case kind.
 */
export function exportDumpCase(dump: UnderstoodDump, settings: SlimeSettings, name: string): IoResult<CaseFile> {
  const estimator =
    settings.advantageEstimator === "reinforce_plus_plus"
      ? "reinforce_pp"
      : settings.advantageEstimator === "ppo"
        ? "gae"
        : null;
  if (estimator === null) {
    return failure(
      new IoError(
        "",
        `--advantage-estimator ${settings.advantageEstimator} has no golden-case kind (cases hold reinforce_plus_plus and ppo)`,
        name,
      ),
    );
  }
  if (estimator === "gae" && settings.contextParallelSize !== 1) {
    return failure(
      new IoError(
        "",
        "ppo under context parallelism puts the reward where no case kind can say (cases put it on the last token)",
        name,
      ),
    );
  }
  const samples = dump.samples;
  const kl = samples.map((s) => s.kl ?? new Float64Array(s.responseLength));
  const batch = {
    rewards: samples.map((s) => s.reward),
    kl,
    lossMasks: samples.map((s) => s.lossMask),
    values: estimator === "gae" ? samples.map((s) => s.values as Float64Array) : undefined,
  };
  const params = {
    gamma: settings.gamma,
    lambd: settings.lambd,
    klCoef: settings.klCoef,
    normalize: settings.normalizeAdvantages,
  };
  let expected: ReturnType<typeof runConvention<Float64Array>>;
  let float32: ReturnType<typeof runConvention<Float32Array>>;
  try {
    expected = runConvention("slime", estimator, batch, params);
    const f32 = {
      rewards: batch.rewards,
      kl: kl.map((k) => Float32Array.from(k)),
      lossMasks: batch.lossMasks,
      values: batch.values?.map((v) => Float32Array.from(v)),
    };
    float32 = runConvention("slime", estimator, f32, params);
  } catch (error) {
    if (error instanceof ScanInputError) return failure(new IoError("", `cannot be a case: ${error.message}`, name));
    throw error;
  }
  const c: ConventionCase = {
    name,
    kind: "convention",
    note: `slime train dump ${name}: ${samples.length} samples, --advantage-estimator ${settings.advantageEstimator} --gamma ${settings.gamma}${estimator === "gae" ? ` --lambd ${settings.lambd}` : ""} --kl-coef ${settings.klCoef}${settings.normalizeAdvantages ? " --normalize-advantages" : ""}; inputs as stored (kl = the dump's kl), expected from Scanlab's core, float32 = the dump's own advantages and returns.`,
    seed: 0,
    library: "slime",
    estimator,
    lengths: samples.map((s) => s.responseLength),
    params: {
      gamma: settings.gamma,
      ...(estimator === "gae" ? { lambd: settings.lambd } : {}),
      kl_coef: settings.klCoef,
      normalize: settings.normalizeAdvantages,
    },
    inputs: {
      rewards: batch.rewards,
      kl: kl.map(list),
      loss_masks: batch.lossMasks.map((m) => list(m) as (0 | 1)[]),
      ...(batch.values ? { values: batch.values.map(list) } : {}),
    },
    reward_index: expected.rewardIndex,
    expected: {
      token_level_rewards: expected.tokenLevelRewards.map(list),
      returns: expected.returns.map(list),
      advantages: expected.advantages.map(list),
    },
    float32: {
      token_level_rewards: float32.tokenLevelRewards.map(list),
      returns: samples.map((s) => list(s.returns as Float64Array)),
      advantages: samples.map((s) => list(s.advantages as Float64Array)),
    },
  };
  return success(buildCaseFile([c], `exported by scanlab dump from ${name}`));
}

function list(values: ArrayLike<number>): number[] {
  return Array.from(values, (v) => (Object.is(v, -0) ? 0 : v));
}
