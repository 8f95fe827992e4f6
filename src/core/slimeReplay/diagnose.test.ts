import { describe, expect, it } from "vitest";
import { intBetween } from "../seededRandom";
import { normals, seededRandom } from "../testRandom";
import { diagnose, type StoredFields } from "./diagnose";
import { replayReference } from "./replayReference";
import { type ReplaySample, SLIME_DEFAULTS, type SlimeSettings } from "./settings";
import { KNOWN_VARIANTS } from "./variants";
import type { KnownVariant, VariantReference } from "./variants/knownVariant";

const f32 = (xs: ArrayLike<number>) => Float64Array.from(xs, Math.fround);

/** A batch with tool spans (a hole in the middle, sometimes a masked end), log-probs and critic values. */
function batch(seed: number, lengths: number[], extra: Partial<ReplaySample> = {}): ReplaySample[] {
  const random = seededRandom(seed);
  return lengths.map((R, i) => {
    const mask = new Array<number>(R).fill(1);
    const hole = intBetween(random, 1, Math.max(1, Math.floor(R / 2)));
    for (let t = hole; t < Math.min(R - 1, hole + 1 + Math.floor(R / 5)); t++) mask[t] = 0;
    if (i % 2 === 0) mask[R - 1] = 0;
    const logProbs = normals(random, R, 0.5).map((x) => Math.fround(-Math.abs(x) - 0.1));
    const refLogProbs = logProbs.map((x) => Math.fround(x + 0.05 * Math.sin(x * 7)));
    return {
      reward: Math.fround(random() * 2 - 1),
      lossMask: mask,
      logProbs,
      refLogProbs,
      values: normals(random, R, 0.3),
      totalLength: R + 7 + i,
      dataParallelRank: i % 2,
      ...extra,
    };
  });
}

/** Stored fields as a float32 run would store them: slime's values, the variant's where it changes them. */
function storedFrom(samples: ReplaySample[], settings: SlimeSettings, variant?: VariantReference): StoredFields[] {
  const slime = replayReference(samples, settings);
  return samples.map((_, i) => ({
    kl: f32(variant?.kl?.[i] ?? slime.kl[i]),
    advantages: f32(variant?.advantages?.[i] ?? slime.advantages[i]),
    returns: f32(variant?.returns?.[i] ?? slime.returns[i]),
  }));
}

const rpp = { ...SLIME_DEFAULTS, advantageEstimator: "reinforce_plus_plus", gamma: 0.99, klCoef: 0.05 } as const;
const ppo = { ...SLIME_DEFAULTS, advantageEstimator: "ppo", gamma: 0.99, lambd: 0.95, klCoef: 0.02 } as const;
const grpo = { ...SLIME_DEFAULTS, advantageEstimator: "grpo", klCoef: 0.05, normalizeAdvantages: true } as const;
const long = [300, 180, 250, 90];
const short = [40, 25, 33, 18];

/** Every known variant, with settings and samples where it changes something. */
const SCENES: { id: string; settings: SlimeSettings; samples: ReplaySample[] }[] = [
  { id: "rpp_kl_unmasked", settings: rpp, samples: batch(1, short) },
  { id: "rpp_kl_unmasked", settings: { ...rpp, normalizeAdvantages: true }, samples: batch(2, short) },
  { id: "rpp_restart_after_mask", settings: rpp, samples: batch(3, short) },
  {
    id: "whiten_per_cp_rank",
    settings: { ...ppo, normalizeAdvantages: true, contextParallelSize: 2 },
    samples: batch(4, short),
  },
  { id: "ppo_kl_inplace", settings: ppo, samples: batch(5, short) },
  { id: "ppo_reward_last_trainable", settings: ppo, samples: batch(6, short) },
  { id: "ppo_gae_trainable_only", settings: ppo, samples: batch(7, short) },
  { id: "grpo_kl_applied", settings: grpo, samples: batch(8, short) },
  { id: "chunk_carry_mispowered", settings: rpp, samples: batch(9, long) },
  { id: "chunk_carry_mispowered", settings: ppo, samples: batch(10, long) },
  { id: "chunk_carry_dropped", settings: { ...rpp, gamma: 1 }, samples: batch(11, long) },
  { id: "chunk_carry_dropped", settings: ppo, samples: batch(12, long) },
  { id: "returns_bfloat16", settings: { ...rpp, gamma: 0.995 }, samples: batch(13, long) },
  { id: "returns_bfloat16", settings: ppo, samples: batch(14, short) },
];

const byId = (id: string) => KNOWN_VARIANTS.find((v) => v.id === id) as KnownVariant;

describe("diagnose names the variant that wrote the stored fields, and no other", () => {
  for (const scene of SCENES) {
    it(`${scene.id} (${scene.settings.advantageEstimator}${scene.settings.normalizeAdvantages ? ", normalised" : ""})`, () => {
      const variant = byId(scene.id);
      expect(variant.applies(scene.samples, scene.settings)).toBe(true);
      const stored = storedFrom(scene.samples, scene.settings, variant.reference(scene.samples, scene.settings));
      const d = diagnose(scene.samples, stored, scene.settings);
      expect(d.matches.map((m) => m.variant.id)).toEqual([scene.id]);
      expect(d.best?.samplesMatched).toEqual(d.samplesDeparting);
      expect(d.best?.samplesContradicting).toEqual([]);
      expect(d.samplesDeparting.length).toBeGreaterThan(0);
      expect(d.sentence).toContain(variant.title);
      expect(d.sentence).toContain(variant.source);
    });
  }

  it("stored fields made by slime's semantics match nothing, in every scene", () => {
    for (const scene of SCENES) {
      const d = diagnose(scene.samples, storedFrom(scene.samples, scene.settings), scene.settings);
      expect(d.matches).toEqual([]);
      expect(d.samplesDeparting).toEqual([]);
      expect(d.sentence).toMatch(/follow slime's semantics/);
    }
  });

  it("the sentence says what matched where: the returns of REINFORCE++ with unmasked KL", () => {
    const scene = SCENES[0];
    const stored = storedFrom(scene.samples, scene.settings, byId(scene.id).reference(scene.samples, scene.settings));
    const d = diagnose(scene.samples, stored, scene.settings);
    expect(d.best?.fields).toEqual(["returns", "advantages"]);
    expect(d.sentence).toBe(
      `the stored returns and advantages match REINFORCE++ with the KL not masked at tool tokens (slime PR #1372), in ${d.samplesDeparting.length} of 4 samples`,
    );
  });

  it("a departure no variant explains is said as such; a stage-rewards variant is compared with the stored rewards", () => {
    const samples = batch(16, short).map((s, i) => ({ ...s, rawReward: i, group: 0 }));
    const settings = { ...grpo, klCoef: 0, normalizeAdvantages: false };
    const stored = storedFrom(samples, settings).map((s, i) => ({ ...s, rewards: samples[i].reward }));
    stored[1] = { ...stored[1], returns: Float64Array.from(stored[1].returns, (x) => x + 1) };
    const d = diagnose(samples, stored, settings);
    expect(d.matches).toEqual([]);
    expect(d.samplesDeparting).toEqual([0, 1, 2, 3]);
    expect(d.sentence).toMatch(/no known variant reproduces them/);
    // The stored rewards are not the group normalisation of raw rewards 0…3: a variant that says what they are matches.
    const rewardsVariant: KnownVariant = {
      id: "stored_rewards",
      title: "the rewards as stored",
      source: "this test",
      stage: "rewards",
      applies: () => true,
      reference: (s) => ({ rewards: Float64Array.from(s, (x) => x.reward) }),
    };
    const withRewards = diagnose(samples, stored, settings, [rewardsVariant]);
    expect(withRewards.best?.fields).toEqual(["rewards"]);
    expect(withRewards.best?.samplesMatched).toEqual([0, 1, 2, 3]);
  });
});
