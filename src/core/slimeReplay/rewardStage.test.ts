import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { normaliseGroup } from "./groupNormalisation";
import { modalGroupSize, promptGroups, unevenGroups } from "./promptGroups";
import { judgeRewardStage, replayRewardStage } from "./rewardStage";
import { type ReplaySample, SLIME_DEFAULTS, type SlimeSettings } from "./settings";
import { replayWholeBatchRewards, unevenGroupsBatchNorm } from "./variants/unevenGroups";

const settings = (s: Partial<SlimeSettings>): SlimeSettings => ({ ...SLIME_DEFAULTS, ...s });
const grpo = settings({ advantageEstimator: "grpo" });
const rppb = settings({ advantageEstimator: "reinforce_plus_plus_baseline" });

/** A batch of samples with these raw rewards, groups and stored rewards (the per-token fields do not matter here). */
function batch(raw: number[], groups: number[], stored: ArrayLike<number>): ReplaySample[] {
  return raw.map((r, i) => ({ reward: stored[i], rawReward: r, group: groups[i], lossMask: [1] }));
}

/**
 * slime's float32 path for one row, op by op as torch rounds: the tensor, a sequential float32 sum
 * and division, the subtraction, a two-pass float32 std, `std + 1e-6` and the quotient. One
 * summation order of the many torch may use; the bound must hold for it.
 */
function slimeFloat32(raw: number[], divideByStd: boolean): number[] {
  const f = Math.fround;
  const x = raw.map(f);
  let sum = 0;
  for (const v of x) sum = f(sum + v);
  const mean = f(sum / x.length);
  const c = x.map((v) => f(v - mean));
  if (!divideByStd) return c;
  let cSum = 0;
  for (const v of c) cSum = f(cSum + v);
  const cMean = f(cSum / c.length);
  let squares = 0;
  for (const v of c) squares = f(squares + f(f(v - cMean) * f(v - cMean)));
  const std = f(Math.sqrt(f(squares / (c.length - 1))));
  const d = f(std + f(1e-6));
  return c.map((v) => f(v / d));
}

// slime issue #2230 / PR #2204's test: groups of 4, 3 and 4; the group of three 5.0 rewards.
const issueRaw = [0, 1, 2, 3, 5, 5, 5, 10, 11, 12, 13];
const issueGroups = [0, 0, 0, 0, 1, 1, 1, 2, 2, 2, 2];
const issueIntended = [-1.5, -0.5, 0.5, 1.5, 0, 0, 0, -1.5, -0.5, 0.5, 1.5];

describe("prompt groups", () => {
  it("groups in order of first appearance; n_samples_per_prompt is the most common size; the others are uneven", () => {
    const groups = promptGroups(batch(issueRaw, issueGroups, issueRaw));
    expect(groups?.map((g) => g.samples.length)).toEqual([4, 3, 4]);
    expect(modalGroupSize([4, 3, 4])).toBe(4);
    expect(modalGroupSize([2, 3])).toBe(3);
    expect(unevenGroups(groups ?? []).map((g) => g.group)).toEqual([1]);
    expect(promptGroups([{ reward: 0, lossMask: [] }])).toBeNull();
  });
});

describe("replayRewardStage: the intended math, each group on its own", () => {
  it("slime issue #2230: mean-centring (reinforce_plus_plus_baseline) gives the group of three 5.0 rewards 0", () => {
    const replay = replayRewardStage(batch(issueRaw, issueGroups, issueRaw), rppb);
    if (!replay.checked) throw new Error(replay.why);
    expect(Array.from(replay.reference)).toEqual(issueIntended);
    expect(replay.unbounded.every((u) => !u)).toBe(true);
  });

  it("grpo divides by the Bessel std + 1e-6; a constant group is 0; a group of one is NaN, as torch's std is", () => {
    const replay = replayRewardStage(batch([1, 0, 5, 5, 7], [0, 0, 1, 1, 2], [0, 0, 0, 0, 0]), grpo);
    if (!replay.checked) throw new Error(replay.why);
    const d = Math.SQRT1_2 + 1e-6;
    expect(replay.reference[0]).toBeCloseTo(0.5 / d, 15);
    expect(replay.reference[1]).toBeCloseTo(-0.5 / d, 15);
    expect([replay.reference[2], replay.reference[3]]).toEqual([0, 0]);
    expect(replay.reference[4]).toBeNaN();
    expect(replay.bound[4]).toBe(0);
  });

  it("other estimators and --disable-rewards-normalization pass the raw reward through, groups or not", () => {
    const samples = [{ reward: 2, rawReward: 2, lossMask: [1] }];
    for (const s of [settings({ advantageEstimator: "ppo" }), settings({ rewardsNormalization: false })]) {
      const replay = replayRewardStage(samples, s);
      expect(replay.checked && Array.from(replay.reference)).toEqual([2]);
      expect(judgeRewardStage(samples, s)).toMatchObject({ checked: true, passed: true });
    }
  });

  it("not checked, with why, when a raw reward or a group is missing", () => {
    const noRaw = judgeRewardStage([{ reward: 0, lossMask: [1], group: 0 }], grpo);
    expect(noRaw).toMatchObject({ checked: false });
    expect(!noRaw.checked && noRaw.why).toMatch(/no raw reward/);
    const noGroup = judgeRewardStage([{ reward: 0, rawReward: 1, lossMask: [1] }], grpo);
    expect(!noGroup.checked && noGroup.why).toMatch(/prompt groups are not known/);
  });
});

describe("the float32 bound", () => {
  it("holds slime's float32 path on random groups (n 1…64, rewards near and far from 0), std and mean only", () => {
    const group = fc.record({
      raw: fc.array(
        fc.integer({ min: -1000, max: 1000 }).map((k) => k / 1000),
        { minLength: 1, maxLength: 64 },
      ),
      scale: fc.constantFrom(1, 1e-3, 1e3),
      offset: fc.constantFrom(0, 1, 100),
      std: fc.boolean(),
    });
    let bounded = 0;
    let checked = 0;
    fc.assert(
      fc.property(group, ({ raw, scale, offset, std }) => {
        const x = raw.map((r) => offset + scale * r);
        const { reference, bound } = normaliseGroup(x, std);
        const computed = slimeFloat32(x, std);
        computed.forEach((v, i) => {
          if (!Number.isFinite(reference[i])) {
            expect(v).toBeNaN();
            return;
          }
          checked += 1;
          if (!Number.isFinite(bound[i])) return;
          bounded += 1;
          expect(Math.abs(v - reference[i])).toBeLessThanOrEqual(bound[i]);
        });
      }),
      { numRuns: 400, seed: 2230 },
    );
    // Unbounded is the rare ill-conditioned group, not a way out of the check.
    expect(bounded / checked).toBeGreaterThan(0.9);
  });

  it("is a small multiple of the float32 gap on an ordinary group, not a blanket tolerance", () => {
    const x = [1, 0, 0.3, -0.5, 0.7];
    const { reference, bound } = normaliseGroup(x, true);
    const computed = slimeFloat32(x, true);
    const worst = Math.max(...bound);
    expect(worst).toBeLessThan(1e-5);
    expect(Math.max(...computed.map((v, i) => Math.abs(v - reference[i])))).toBeLessThanOrEqual(worst);
  });

  it("a group whose std drowns in rounding is unbounded: flagged, and held to the exact value at the accuracy threshold", () => {
    // Three equal rewards far from 0 with a spread below float32's resolution there.
    const x = [1e4, 1e4 + 1e-9, 1e4 - 1e-9];
    const samples = batch(x, [0, 0, 0], [0, 0, 0]);
    const replay = replayRewardStage(samples, grpo);
    expect(replay.checked && replay.unbounded).toEqual([true, true, true]);
    const verdict = judgeRewardStage(samples, grpo);
    // float32 sees three equal rewards and stores 0; the exact normalisation is ±1e-3: not within.
    expect(verdict).toMatchObject({ checked: true, passed: false, departing: [1, 2], unbounded: [0, 1, 2] });
    expect(verdict.checked && verdict.message).toMatch(
      /differ from group normalisation of the raw rewards in samples 1–2/,
    );
    // Stored at the exact values, the same rewards pass: the threshold checks what the bound cannot.
    const exact = Array.from(replay.checked ? replay.reference : []);
    expect(judgeRewardStage(batch(x, [0, 0, 0], exact), grpo)).toMatchObject({ passed: true, unbounded: [0, 1, 2] });
  });
});

describe("judgeRewardStage and the uneven-groups variant (slime issue #2230, #1414)", () => {
  // What slime computes today: the 11 rewards are not n × rollout_batch_size, so one row of 11.
  const fallback = slimeFloat32(issueRaw, false);

  it("slime's whole-batch fallback gives the group of three 5.0 rewards −1.090909 instead of 0", () => {
    expect(fallback[4]).toBeCloseTo(-1.090909, 6);
    const samples = batch(issueRaw, issueGroups, fallback);
    expect(unevenGroupsBatchNorm.applies(samples, rppb)).toBe(true);
    const rewards = unevenGroupsBatchNorm.reference(samples, rppb).rewards as Float64Array;
    expect(rewards[4]).toBeCloseTo(5 - 67 / 11, 15);
    const variant = judgeRewardStage(samples, rppb, replayWholeBatchRewards(samples, rppb));
    expect(variant).toMatchObject({ checked: true, passed: true });
    const intended = judgeRewardStage(samples, rppb);
    expect(intended).toMatchObject({ checked: true, passed: false, departing: issueRaw.map((_, i) => i) });
    expect(intended.checked && intended.message).toBe(
      "the stored rewards differ from group mean-centring of the raw rewards in samples 0–3, group 0 of size 4; samples 4–6, group 1 of size 3; samples 7–10, group 2 of size 4, by up to 5.41",
    );
  });

  it("names the one group that departs, with its samples and size", () => {
    const stored = issueIntended.map((r, i) => (issueGroups[i] === 1 ? fallback[i] : r));
    const verdict = judgeRewardStage(batch(issueRaw, issueGroups, stored), rppb);
    expect(verdict).toMatchObject({ checked: true, passed: false, departing: [4, 5, 6] });
    expect(verdict.checked && verdict.message).toBe(
      "the stored rewards differ from group mean-centring of the raw rewards in samples 4–6, group 1 of size 3, by up to 1.09",
    );
  });

  it("grpo: the intended stored rewards pass; the variant applies to any normalised batch of two or more groups", () => {
    const raw = [1, 0, 0.3, -0.5, 0.2];
    const groups = [0, 0, 1, 1, 1];
    const stored = [...slimeFloat32(raw.slice(0, 2), true), ...slimeFloat32(raw.slice(2), true)];
    const samples = batch(raw, groups, stored);
    const verdict = judgeRewardStage(samples, grpo);
    expect(verdict).toMatchObject({ checked: true, passed: true, departing: [], unbounded: [] });
    expect(verdict.checked && verdict.message).toMatch(
      /^the stored rewards match group normalisation .*5 samples, 2 groups/,
    );
    expect(unevenGroupsBatchNorm.applies(samples, grpo)).toBe(true);
    expect(unevenGroupsBatchNorm.applies(samples, settings({ advantageEstimator: "ppo" }))).toBe(false);
    expect(unevenGroupsBatchNorm.applies(batch([1, 0], [0, 0], [0, 0]), grpo)).toBe(false);
    expect(judgeRewardStage(samples, grpo, replayWholeBatchRewards(samples, grpo))).toMatchObject({ passed: false });
  });
});
