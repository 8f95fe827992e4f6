import { describe, expect, it } from "vitest";
import { roundToBfloat16 } from "../../bfloat16";
import { replayReference } from "../replayReference";
import { type ReplaySample, SLIME_DEFAULTS, type SlimeSettings } from "../settings";
import { chunkCarryDropped, chunkCarryMispowered } from "./chunkCarry";
import { grpoKlApplied } from "./grpoKlApplied";
import { ppoGaeTrainableOnly } from "./ppoGaeTrainableOnly";
import { ppoKlInplace } from "./ppoKlInplace";
import { ppoRewardLastTrainable } from "./ppoRewardLastTrainable";
import { returnsBfloat16 } from "./returnsBfloat16";
import { rppKlUnmasked } from "./rppKlUnmasked";
import { rppRestartAfterMask } from "./rppRestartAfterMask";
import { chunkedRowScan, serialScan } from "./variantScans";
import { whitenPerCpRank } from "./whitenPerCpRank";

const f64 = (xs: number[]) => Float64Array.from(xs);
const settings = (s: Partial<SlimeSettings>): SlimeSettings => ({ ...SLIME_DEFAULTS, ...s });
const close = (got: ArrayLike<number>, want: number[], digits = 12) => {
  expect(got.length).toBe(want.length);
  want.forEach((w, t) => {
    expect(got[t]).toBeCloseTo(w, digits);
  });
};

describe("rpp_kl_unmasked (slime PR #1372)", () => {
  // The numbers of the same fix ported to miles (PR #1383): masks [1,0,0,1], kl 1, β 1, γ 0.9.
  const s = settings({ advantageEstimator: "reinforce_plus_plus", klCoef: 1, gamma: 0.9 });
  const samples: ReplaySample[] = [{ reward: 0, lossMask: [1, 0, 0, 1], kl: f64([1, 1, 1, 1]) }];

  it("leaks the tool tokens' KL into the returns: G_0 = −3.439 instead of −1.729", () => {
    expect(rppKlUnmasked.applies(samples, s)).toBe(true);
    const v = rppKlUnmasked.reference(samples, s);
    close(v.returns?.[0] ?? [], [-3.439, -2.71, -1.9, -1]);
    expect(v.advantages?.[0]).toEqual(v.returns?.[0]);
    expect(replayReference(samples, s).returns[0][0]).toBeCloseTo(-1.729, 12);
  });

  it("applies only to REINFORCE++ with a KL penalty and a masked token", () => {
    expect(rppKlUnmasked.applies(samples, { ...s, klCoef: 0 })).toBe(false);
    expect(rppKlUnmasked.applies([{ ...samples[0], lossMask: [1, 1, 1, 1] }], s)).toBe(false);
    expect(rppKlUnmasked.applies(samples, { ...s, advantageEstimator: "ppo" })).toBe(false);
  });

  it("whitens its advantages as slime would under --normalize-advantages", () => {
    const batch = [...samples, { reward: 1, lossMask: [1, 1], kl: f64([0.5, 0]) }];
    const v = rppKlUnmasked.reference(batch, { ...s, normalizeAdvantages: true });
    expect(v.advantages?.[0]).not.toEqual(v.returns?.[0]);
    const m = [...(v.advantages?.[0] ?? []).filter((_, t) => t === 0 || t === 3), ...(v.advantages?.[1] ?? [])];
    expect(m.reduce((a, b) => a + b, 0)).toBeCloseTo(0, 12);
  });
});

describe("rpp_restart_after_mask (verl PR #6376)", () => {
  const s = settings({ advantageEstimator: "reinforce_plus_plus", gamma: 0.5 });
  const samples: ReplaySample[] = [{ reward: 1, lossMask: [1, 0, 1], kl: f64([0, 0, 0]) }];

  it("restarts the reward-to-go at the tool token: [0, 0.5, 1] where slime gives [0.25, 0.5, 1]", () => {
    expect(rppRestartAfterMask.applies(samples, s)).toBe(true);
    expect(Array.from(rppRestartAfterMask.reference(samples, s).returns?.[0] ?? [])).toEqual([0, 0.5, 1]);
    expect(Array.from(replayReference(samples, s).returns[0])).toEqual([0.25, 0.5, 1]);
  });

  it("changes nothing without a masked token before the last trainable one, or at γ = 0", () => {
    expect(rppRestartAfterMask.applies([{ ...samples[0], lossMask: [1, 1, 0] }], s)).toBe(false);
    expect(rppRestartAfterMask.applies(samples, { ...s, gamma: 0 })).toBe(false);
  });
});

describe("ppo_kl_inplace (slime PR #2114)", () => {
  const s = settings({ advantageEstimator: "ppo", klCoef: 0.5 });
  const samples: ReplaySample[] = [
    { reward: 1, lossMask: [1, 1], logProbs: f64([-1, -2]), refLogProbs: f64([-1.2, -2.4]), values: f64([0, 0]) },
  ];

  it("stores kl·(−kl_coef) with the reward added at the last token", () => {
    expect(ppoKlInplace.applies(samples, s)).toBe(true);
    const v = ppoKlInplace.reference(samples, s);
    close(v.kl?.[0] ?? [], [-0.1, 1 - 0.2]);
    expect(v.advantages).toBeUndefined();
    expect(v.returns).toBeUndefined();
  });

  it("at kl_coef 0 the stored kl is the reward on the last token; without log-probs it cannot be told", () => {
    close(ppoKlInplace.reference(samples, { ...s, klCoef: 0 }).kl?.[0] ?? [], [0, 1]);
    const bare = [{ ...samples[0], logProbs: undefined, kl: f64([0.2, 0.4]) }];
    expect(ppoKlInplace.applies(bare, s)).toBe(false);
  });
});

describe("ppo_reward_last_trainable and ppo_gae_trainable_only (miles PR #1827)", () => {
  // The PR's own case: mask [1,1,0,0,1,0], kl 1…6, β 0.1, reward 10, γ = λ = 0.
  const s = settings({ advantageEstimator: "ppo", klCoef: 0.1, gamma: 0, lambd: 0 });
  const samples: ReplaySample[] = [
    {
      reward: 10,
      lossMask: [1, 1, 0, 0, 1, 0],
      kl: f64([1, 2, 3, 4, 5, 6]),
      values: f64([0.5, -0.3, 0.7, 0.1, -0.2, 0.4]),
    },
  ];

  it("slime puts the reward on the masked last token: at γ = 0 the trainable tokens never see it", () => {
    close(replayReference(samples, s).advantages[0], [-0.6, 0.1, -1, -0.5, -0.3, 9]);
  });

  it("the reward on the last trainable token: A_4 = −0.5 + 10 + 0.2", () => {
    expect(ppoRewardLastTrainable.applies(samples, s)).toBe(true);
    const v = ppoRewardLastTrainable.reference(samples, s);
    close(v.advantages?.[0] ?? [], [-0.6, 0.1, -1, -0.5, 9.7, -1]);
    close(v.returns?.[0] ?? [], [-0.1, -0.2, -0.3, -0.4, 9.5, -0.6]);
  });

  it("GAE over trainable tokens only: the PR's expected advantages, zeros at masked tokens", () => {
    const v = ppoGaeTrainableOnly.reference(samples, s);
    close(v.advantages?.[0] ?? [], [-0.6, 0.1, 0, 0, 9.7, 0]);
    close(v.returns?.[0] ?? [], [-0.1, -0.2, 0, 0, 9.5, 0]);
  });

  it("with γλ > 0 the carry crosses a tool span without decaying", () => {
    const t = { ...s, gamma: 1, lambd: 0.5, klCoef: 0 };
    const v = ppoGaeTrainableOnly.reference([{ ...samples[0], values: f64([0, 0, 0, 0, 0, 0]) }], t);
    close(v.advantages?.[0] ?? [], [2.5, 5, 0, 0, 10, 0]);
  });

  it("the placement variant applies only where slime's reward index is not the last trainable token", () => {
    expect(ppoRewardLastTrainable.applies([{ ...samples[0], lossMask: [1, 0, 1, 1, 1, 1] }], s)).toBe(false);
    expect(ppoGaeTrainableOnly.applies([{ ...samples[0], lossMask: [1, 1, 1, 1, 1, 1] }], s)).toBe(false);
  });
});

describe("grpo_kl_applied (slime issue #397)", () => {
  const s = settings({ advantageEstimator: "grpo", klCoef: 0.5 });
  const samples: ReplaySample[] = [{ reward: 1, lossMask: [1, 1, 0], kl: f64([0.1, 0.2, 0.3]) }];

  it("R − β·kl on every token, masked or not, where slime broadcasts R", () => {
    expect(grpoKlApplied.applies(samples, s)).toBe(true);
    const v = grpoKlApplied.reference(samples, s);
    close(v.advantages?.[0] ?? [], [0.95, 0.9, 0.85]);
    expect(v.returns?.[0]).toEqual(v.advantages?.[0]);
    expect(grpoKlApplied.applies(samples, { ...s, klCoef: 0 })).toBe(false);
  });
});

describe("whiten_per_cp_rank (slime PR #2235)", () => {
  // CONTEXT_PARALLEL.md's example: T = 20, R = 12, CP 2: rank 1 holds response tokens 0–7, rank 0 tokens 8–11.
  const s = settings({ advantageEstimator: "reinforce_plus_plus", gamma: 0.5, normalizeAdvantages: true });
  const samples: ReplaySample[] = [
    { reward: 1, lossMask: new Array(12).fill(1), totalLength: 20, kl: new Float64Array(12) },
  ];
  const moments = (xs: Float64Array) => {
    const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
    return [mean, xs.reduce((a, b) => a + (b - mean) ** 2, 0) / (xs.length - 1)];
  };

  it("each rank's slice has mean 0 and variance 1 of its own", () => {
    const v = whitenPerCpRank().reference(samples, { ...s, contextParallelSize: 2 });
    const adv = v.advantages?.[0] as Float64Array;
    // The 1e-8 inside rsqrt(var + 1e-8) is 1e-4 of rank 1's small variance.
    for (const part of [adv.slice(0, 8), adv.slice(8)]) close(moments(part), [0, 1], 4);
    const slime = replayReference(samples, { ...s, contextParallelSize: 2 }).advantages[0];
    expect(Math.abs(moments(slime.slice(8))[0])).toBeGreaterThan(0.5);
  });

  it("applies with normalisation and CP > 1", () => {
    expect(whitenPerCpRank().applies(samples, { ...s, contextParallelSize: 2 })).toBe(true);
    expect(whitenPerCpRank().applies(samples, s)).toBe(false);
    expect(whitenPerCpRank().applies(samples, { ...s, contextParallelSize: 2, normalizeAdvantages: false })).toBe(
      false,
    );
  });
});

describe("chunk_carry_mispowered and chunk_carry_dropped (slime's chunked_discounted_returns)", () => {
  it("the exact carry is the serial scan, whatever the padded length", () => {
    const row = Float64Array.from({ length: 300 }, (_, t) => Math.sin(t));
    const serial = serialScan(row, 0.99);
    for (const padded of [300, 301, 400, 555]) {
      const chunked = chunkedRowScan(row, 0.99, padded, "exact");
      chunked.forEach((x, t) => {
        expect(x).toBeCloseTo(serial[t], 10);
      });
    }
  });

  it("boundaries counted from the end of the padded row: 130 tokens alone break at t = 1, padded to 200 at t = 71", () => {
    const row = new Float64Array(130);
    row[129] = 1;
    const alone = chunkedRowScan(row, 1, 130, "dropped");
    expect([alone[0], alone[1], alone[2]]).toEqual([0, 0, 1]);
    const padded = chunkedRowScan(row, 1, 200, "dropped");
    expect([padded[71], padded[72]]).toEqual([0, 1]);
  });

  it("a mis-powered carry is 1/γ too large at the first token past the boundary", () => {
    const row = new Float64Array(130);
    row[129] = 1;
    const g = chunkedRowScan(row, 0.5, 130, "mispowered");
    expect(g[1]).toBe(0.5 ** 127);
    expect(g[0]).toBe(0.5 ** 128);
    expect(g[2]).toBe(0.5 ** 127);
  });

  it("applies to REINFORCE++ and ppo when a rank's padded batch is longer than a chunk", () => {
    const s = settings({ advantageEstimator: "reinforce_plus_plus", gamma: 0.99 });
    const long: ReplaySample[] = [{ reward: 1, lossMask: new Array(129).fill(1), kl: new Float64Array(129) }];
    expect(chunkCarryDropped.applies(long, s)).toBe(true);
    expect(chunkCarryMispowered.applies(long, { ...s, gamma: 1 })).toBe(false);
    expect(chunkCarryDropped.applies([{ ...long[0], lossMask: [1], kl: f64([0]) }], s)).toBe(false);
    const v = chunkCarryDropped.reference(long, s);
    // t = 0 is alone in the second chunk: without the carry it keeps only its own (zero) reward.
    expect(v.returns?.[0][0]).toBe(0);
    expect(replayReference(long, s).returns[0][0]).toBeCloseTo(0.99 ** 128, 12);
  });
});

describe("returns_bfloat16", () => {
  it("roundToBfloat16 rounds float32 bits to nearest even at 8 significant bits", () => {
    expect(roundToBfloat16(1 + 2 ** -8)).toBe(1);
    expect(roundToBfloat16(1 + 3 * 2 ** -8)).toBe(1 + 2 ** -6);
    expect(roundToBfloat16(0.995)).toBe(0.99609375);
    expect(roundToBfloat16(-3)).toBe(-3);
    expect(Number.isNaN(roundToBfloat16(Number.NaN))).toBe(true);
    expect(roundToBfloat16(Number.POSITIVE_INFINITY)).toBe(Number.POSITIVE_INFINITY);
  });

  it("the discount kernel holds bf16(bf16(γ)^k): 0.995 acts as 0.99609375", () => {
    const s = settings({ advantageEstimator: "reinforce_plus_plus", gamma: 0.995 });
    const samples: ReplaySample[] = [{ reward: 1, lossMask: [1, 1, 1, 1, 1], kl: new Float64Array(5) }];
    const v = returnsBfloat16.reference(samples, s).returns?.[0] as Float64Array;
    expect(Array.from(v)).toEqual([4, 3, 2, 1, 0].map((k) => roundToBfloat16(0.99609375 ** k)));
    v.forEach((x) => {
      expect(roundToBfloat16(x)).toBe(x);
    });
  });
});
