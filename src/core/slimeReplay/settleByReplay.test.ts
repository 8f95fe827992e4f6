import { describe, expect, it } from "vitest";
import type { InferredSettings } from "./inferredSettings";
import { type DumpOutputs, replaySlime } from "./replayDump";
import { replayReference } from "./replayReference";
import { type ReplaySample, SLIME_DEFAULTS, type SlimeSettings } from "./settings";
import { roundAndCheck } from "./settleByReplay";

describe("roundAndCheck on a batch larger than its screening subset", () => {
  const truth = { ...SLIME_DEFAULTS, advantageEstimator: "reinforce_plus_plus" as const, gamma: 0.995, klCoef: 0.04 };
  const samples: ReplaySample[] = Array.from({ length: 40 }, (_, i) => {
    const L = 4000;
    const kl = Float64Array.from({ length: L }, (_, t) => Math.fround(0.01 * Math.sin(0.37 * t + i) + 0.002));
    return { reward: i % 2 ? 1 : -0.5, lossMask: new Array(L).fill(1), kl };
  });
  const stored: DumpOutputs[] = replayReference(samples, truth).returns.map((r) => {
    const returns = Float64Array.from(r, Math.fround);
    return { advantages: returns, returns };
  });

  it("replays the first trial whole, skips a later one that fails on the subset, and confirms the one that passes", () => {
    const result: InferredSettings = {
      settings: { ...truth, klCoef: 0.05 },
      estimates: {},
      notIdentifiable: {},
      notes: [],
    };
    const pending = {
      alternatives: [
        { settings: { klCoef: 0.06 }, note: "the wrong one" },
        { settings: { klCoef: 0.04 }, note: "the right one" },
      ],
      values: {},
    };
    const replayed: number[] = [];
    const replay = (s: ReplaySample[], o: DumpOutputs[], settings: SlimeSettings) => {
      replayed.push(settings.klCoef);
      return replaySlime(s, o, settings);
    };
    roundAndCheck(samples, stored, result, false, pending, replay);
    expect(result.settings.klCoef).toBe(0.04);
    expect(result.notes.join(" ")).toContain("the right one");
    // 0.05 whole (its verdict is the first), 0.06 screened out on the subset, 0.04 confirmed whole.
    expect(replayed).toEqual([0.05, 0.04]);
    // What the subset said of 0.06 holds for the whole batch, and 0.04 passes there.
    const whole = replaySlime(samples, stored, { ...truth, klCoef: 0.06 });
    expect(whole.ok && !whole.passed).toBe(true);
    expect(replaySlime(samples, stored, truth)).toMatchObject({ ok: true, passed: true });
  });

  it("screens nothing under normalisation: the whitening is the batch's", () => {
    const result: InferredSettings = {
      settings: { ...truth, klCoef: 0.05, normalizeAdvantages: true },
      estimates: {},
      notIdentifiable: {},
      notes: [],
    };
    const pending = { alternatives: [{ settings: { klCoef: 0.06 }, note: "another" }], values: {} };
    const replayed: number[] = [];
    roundAndCheck(samples, stored, result, false, pending, (s, o, settings) => {
      replayed.push(settings.klCoef);
      return replaySlime(s, o, settings);
    });
    expect(replayed).toEqual([0.05, 0.05, 0.06, 0.06]);
  });
});
