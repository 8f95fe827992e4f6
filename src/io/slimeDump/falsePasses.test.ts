import { describe, expect, it } from "vitest";
import { SLIME_DEFAULTS, type SlimeSettings } from "../../core";
import { openDumpBytes } from "../../testing/dumpTamperKit";
import { bitsSentence, checkDump, dumpSettings, replayDump, type UnderstoodDump } from ".";
import { fixtureBytes } from "./dumpFixtures";

/** The false passes an outside probe found, each on a real dump written by slime's code. */

const open = (path: string): UnderstoodDump => openDumpBytes(fixtureBytes(path), path);

const PPO = "slime-shared/train_ppo_g099_l095_kl002.pt";
const ppoSettings = (dump: UnderstoodDump): SlimeSettings =>
  dumpSettings(dump, { gamma: 0.99, lambd: 0.95, klCoef: 0.02, normalizeAdvantages: true });

function shift(values: Float64Array, edit: (x: number) => number): void {
  for (let t = 0; t < values.length; t++) values[t] = edit(values[t]);
}

function verdicts(dump: UnderstoodDump, settings: SlimeSettings) {
  const r = replayDump(dump, settings);
  if (!r.ok) throw new Error(r.error);
  return r.samples.map((s) => s.passed);
}

describe("whitened advantages are checked as one shared map", () => {
  it("the dump as slime wrote it passes", () => {
    const dump = open(PPO);
    expect(verdicts(dump, ppoSettings(dump)).every(Boolean)).toBe(true);
  });

  it("an edit of 1e-3 at one token fails that sample only, named as off the batch's whitening", () => {
    const dump = open(PPO);
    (dump.samples[1].advantages as Float64Array)[5] += 1e-3;
    const r = replayDump(dump, ppoSettings(dump));
    if (!r.ok) throw new Error(r.error);
    expect(r.samples.map((s) => s.passed)).toEqual([true, false, true, true, true, true, true, true]);
    expect(r.samples[1].advantages.cause).toMatch(/off the whitening map.*token 5/);
  });

  it("an edit of 1e-3 at every token fails every sample: the whitening's centre moved", () => {
    const dump = open(PPO);
    for (const s of dump.samples) shift(s.advantages as Float64Array, (x) => x + 1e-3);
    const r = replayDump(dump, ppoSettings(dump));
    if (!r.ok) throw new Error(r.error);
    expect(r.samples.every((s) => !s.passed)).toBe(true);
    expect(r.samples[0].advantages.cause).toMatch(/centred .* away from the batch's exact mean/);
  });

  it("an edit of 0.015 in one sample fails that sample only", () => {
    const dump = open(PPO);
    shift(dump.samples[2].advantages as Float64Array, (x) => x + 0.015);
    expect(verdicts(dump, ppoSettings(dump))).toEqual([true, true, false, true, true, true, true, true]);
  });

  it("a scale off by 2e-3 fails every sample", () => {
    const dump = open(PPO);
    for (const s of dump.samples) shift(s.advantages as Float64Array, (x) => x * 1.002);
    const r = replayDump(dump, ppoSettings(dump));
    if (!r.ok) throw new Error(r.error);
    expect(r.samples.every((s) => !s.passed)).toBe(true);
    expect(r.samples[3].advantages.cause).toMatch(/scales by/);
  });
});

describe("what the bound cannot see, the bits can", () => {
  it("a stored return moved by 4 ulps stays within its float32 bound, and the bit-level comparison names it", () => {
    const RPP = "slime-shared/train_rpp_g099_kl005.pt";
    const given = { advantageEstimator: "reinforce_plus_plus" as const, gamma: 0.99, klCoef: 0.05 };
    const clean = checkDump(open(RPP), given);
    expect(clean.bits).toMatchObject({ compared: 7870, identical: 7870, maxUlps: 0 });
    const dump = open(RPP);
    const returns = dump.samples[4].returns as Float64Array;
    const x = returns[1000];
    returns[1000] = x + 4 * 2 ** (Math.floor(Math.log2(Math.abs(x))) - 23);
    const edited = checkDump(dump, given);
    expect(edited.passed).toBe(true);
    expect(edited.bits).toMatchObject({
      compared: 7870,
      identical: 7869,
      maxUlps: 4,
      first: { sample: 4, token: 1000 },
    });
    expect(bitsSentence(edited.bits as NonNullable<typeof edited.bits>)).toMatch(/^1 of 7870 stored returns differ/);
  });
});

describe("no pass without a finite check", () => {
  it("grpo with every reward equal and normalisation: NaN, 42, 1e30 and ±Inf advantages fail", () => {
    const dump = open("generated/grpo_kl0.pt");
    for (const s of dump.samples) s.reward = 0.5;
    const settings = { ...SLIME_DEFAULTS, normalizeAdvantages: true };
    for (const bad of [Number.NaN, 42, 1e30, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
      for (const s of dump.samples) (s.advantages as Float64Array).fill(bad);
      const r = replayDump(dump, settings);
      expect(r.ok && r.passed).toBe(false);
    }
  });

  it("a reward of +Inf: finite stored values never pass against it", () => {
    const dump = open("generated/grpo_kl0.pt");
    dump.samples[0].reward = Number.POSITIVE_INFINITY;
    for (const s of dump.samples) (s.advantages as Float64Array).fill(42);
    const r = replayDump(dump, SLIME_DEFAULTS);
    expect(r.ok && r.samples[0].passed).toBe(false);
  });

  it("kl_coef 1e300 is refused: it rounds to infinity in float32", () => {
    const dump = open(PPO);
    const r = replayDump(dump, { ...ppoSettings(dump), klCoef: 1e300 });
    expect(r).toEqual({ ok: false, error: expect.stringMatching(/kl_coef 1e\+300 rounds to infinity/) });
  });
});
