import { describe, expect, it } from "vitest";
import { inferSettings } from "./inferSettings";
import { replayReference } from "./replayReference";
import { type ReplaySample, SLIME_DEFAULTS } from "./settings";

describe("inferSettings on a batch larger than the fits read", () => {
  it("fits γ and kl_coef on a spread of samples, says so, and reads them back", () => {
    const truth = { ...SLIME_DEFAULTS, advantageEstimator: "reinforce_plus_plus" as const, gamma: 0.995, klCoef: 0.04 };
    const samples: ReplaySample[] = Array.from({ length: 40 }, (_, i) => {
      const L = 4000;
      const kl = Float64Array.from({ length: L }, (_, t) => Math.fround(0.01 * Math.sin(0.37 * t + i) + 0.002));
      return { reward: i % 2 ? 1 : -0.5, lossMask: new Array(L).fill(1), kl };
    });
    const returns = replayReference(samples, truth).returns.map((r) => Float64Array.from(r, Math.fround));
    const inferred = inferSettings(
      samples,
      returns
        .map((r) => ({ advantages: r, returns: r, kl: samples[0].kl }))
        .map((o, i) => ({ ...o, kl: samples[i].kl })),
    );
    expect(inferred.notes.join(" ")).toMatch(/fitted on \d+ of 40 samples/);
    expect(inferred.settings).toMatchObject({ advantageEstimator: "reinforce_plus_plus", gamma: 0.995, klCoef: 0.04 });
  });
});
