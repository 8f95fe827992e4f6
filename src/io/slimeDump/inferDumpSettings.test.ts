import { describe, expect, it } from "vitest";
import { type InferredSettings, SLIME_DEFAULTS, type SlimeSettings } from "../../core";
import { openFixtureDump } from "../../testing/dumpTamperKit";
import { inferDumpSettings, replayDump, type UnderstoodDump } from ".";
import { MANIFEST, manifestSettings, SHARED_TRAIN_DUMPS } from "./dumpFixtures";

/** The scalar settings each estimator reads: the truth of the others is whatever the flags said, unused. */
const USES: Record<string, (keyof SlimeSettings)[]> = {
  grpo: [],
  gspo: [],
  cispo: [],
  reinforce_plus_plus_baseline: ["klCoef"],
  reinforce_plus_plus: ["gamma", "klCoef"],
  ppo: ["gamma", "lambd", "klCoef"],
};

const family = (e: string) => (e === "gspo" || e === "cispo" ? "grpo" : e);

/**
 * Every setting the run used is read back (a scalar within 1e-3 relative and within its stated
 * uncertainty, and equal to the flag after rounding to a clean decimal) or comes with a reason;
 * the dump replays with the inferred settings.
 */
function expectTruth(dump: UnderstoodDump, inferred: InferredSettings, given: Partial<SlimeSettings>) {
  const truth = { ...SLIME_DEFAULTS, ...given };
  const why = inferred.notIdentifiable;
  expect(family(inferred.settings.advantageEstimator)).toBe(family(truth.advantageEstimator));
  if (inferred.settings.advantageEstimator !== truth.advantageEstimator) {
    expect(why.advantageEstimator).toMatch(/grpo, gspo and cispo compute the same/);
  }
  for (const key of ["gamma", "lambd", "klCoef"] as const) {
    if (!USES[truth.advantageEstimator].includes(key)) {
      // Unused by the estimator: a reason, or kl_coef 0 read off a zero KL.
      if (!(key === "klCoef" && inferred.estimates.klCoef?.value === 0)) expect(why[key], key).toBeDefined();
      continue;
    }
    const e = inferred.estimates[key];
    if (!e) {
      expect(why[key], key).toBeDefined();
      continue;
    }
    const want = truth[key];
    expect(Math.abs(e.value - want), `${key} ${e.value} ± ${e.uncertainty}`).toBeLessThanOrEqual(e.uncertainty);
    expect(Math.abs(e.value - want)).toBeLessThanOrEqual(1e-3 * Math.abs(want));
    expect(inferred.settings[key]).toBe(want);
  }
  for (const key of Object.keys(given) as (keyof SlimeSettings)[]) {
    if (["advantageEstimator", "gamma", "lambd", "klCoef"].includes(key)) continue;
    if (inferred.settings[key] !== truth[key]) expect(why[key], `${key}: ${inferred.settings[key]}`).toBeDefined();
  }
  const replay = replayDump(dump, inferred.settings);
  expect(replay.ok && replay.passed).toBe(true);
}

describe("inferDumpSettings on the real dumps: the settings they were written with", () => {
  for (const d of SHARED_TRAIN_DUMPS) {
    it(d.file, () => {
      const dump = openFixtureDump(d.file);
      const inferred = inferDumpSettings(dump);
      expectTruth(dump, inferred, d.settings as Partial<SlimeSettings>);
      expect(inferred.settings.klLossType).toBe(d.file.includes("ppo") ? "k2" : "k1");
      expect(inferred.settings.nSamplesPerPrompt).toBe(dump.promptGroups?.nSamplesPerPrompt);
    });
  }

  for (const entry of MANIFEST.filter((e) => e.expect === "pass")) {
    it(`generated/${entry.file}`, () => {
      const dump = openFixtureDump(`generated/${entry.file}`);
      expectTruth(dump, inferDumpSettings(dump), manifestSettings(entry) as Partial<SlimeSettings>);
    });
  }

  it("says why where a dump cannot tell", () => {
    const lowVar = inferDumpSettings(openFixtureDump("generated/rppb_kl003_lowvar.pt"));
    expect(lowVar.settings.klLossType).toBe("k3");
    expect(why(lowVar, "klLossType")).toMatch(/k3 and low_var_kl give the same KL/);
    expect(why(lowVar, "gamma")).toMatch(/reinforce_plus_plus_baseline does not discount/);
    const gspo = inferDumpSettings(openFixtureDump("generated/gspo_norm_kl001_k3.pt"));
    expect(why(gspo, "klCoef")).toMatch(/grpo does not use the KL penalty/);
    const grpo = inferDumpSettings(openFixtureDump("generated/grpo_kl0.pt"));
    expect(grpo.estimates.klCoef).toEqual({ value: 0, uncertainty: 0 });
    expect(why(grpo, "klLossType")).toMatch(/the KL is zero everywhere/);
    const cp4 = inferDumpSettings(openFixtureDump("generated/cp4_ppo_g1_l095_kl002_k1.pt"));
    expect(cp4.settings.contextParallelSize).toBe(4);
    expect(cp4.notIdentifiable.contextParallelSize).toBeUndefined();
    const ppo = inferDumpSettings(openFixtureDump("generated/ppo_g1_l1_kl001_k3.pt"));
    expect(why(ppo, "contextParallelSize")).toMatch(/place every reward alike/);
    const rpp = inferDumpSettings(openFixtureDump("generated/cp2_rpp_norm_g099_kl002_k1.pt"));
    expect(why(rpp, "contextParallelSize")).toMatch(/only ppo's reward placement depends on it/);
  });

  it("a rollout dump has nothing to read", () => {
    const r = inferDumpSettings(openFixtureDump("slime-shared/rollout_eval_5.pt"));
    expect(r.settings).toEqual(SLIME_DEFAULTS);
    expect(r.notes.at(-1)).toMatch(/no stored advantages/);
  });
});

function why(r: InferredSettings, key: keyof SlimeSettings): string | undefined {
  return r.notIdentifiable[key];
}

describe("the replay that settles the settings is the check's replay", () => {
  it("replaying the settled settings gives back that replay, not a second one; other settings replay anew", () => {
    const dump = openFixtureDump("generated/ppo_g1_l1_kl001_k3.pt");
    const inferred = inferDumpSettings(dump);
    const first = replayDump(dump, { ...inferred.settings });
    // The same settings in another key order are the same settings.
    const reordered = Object.fromEntries(Object.entries(inferred.settings).reverse()) as unknown as SlimeSettings;
    expect(replayDump(dump, reordered)).toBe(first);
    expect(first.ok && first.passed).toBe(true);
    const other = replayDump(dump, { ...inferred.settings, gamma: 0.5 });
    expect(other).not.toBe(first);
    expect(other.ok && other.passed).toBe(false);
  });
});
