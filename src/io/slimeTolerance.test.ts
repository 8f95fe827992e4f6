import { describe, expect, it } from "vitest";
import type { PlaygroundState } from "./playgroundState";
import { BASE_SETTINGS, exampleById } from "./presets";
import { isCloseFloat32, NEAR_FRACTION, predictSlimeTolerance, SLIME_TOLERANCES, slimeSides } from "./slimeTolerance";

const long = (estimator: PlaygroundState["estimator"], settings: Partial<PlaygroundState> = {}): PlaygroundState => ({
  ...BASE_SETTINGS,
  estimator,
  gamma: 0.99999,
  ...settings,
  data: { source: "preset", preset: "dense", seed: 1, rows: 4, tokens: 5000, ragged: false },
});

describe("torch.isclose as slime's assert_close applies it", () => {
  it("compares |a − b| with atol + rtol·|b|, every step rounded to float32", () => {
    expect(isCloseFloat32(1 + 2e-5, 1, 1e-5, 1e-5)).toBe(true);
    expect(isCloseFloat32(1 + 2.1e-5, 1, 1e-5, 1e-5)).toBe(false);
    // The tolerance is relative to the expected side (slime's serial loop), not the actual one.
    expect(isCloseFloat32(0, 1e6, 1e-5, 1e-5)).toBe(false);
    expect(isCloseFloat32(1e6 - 10, 1e6, 1e-5, 1e-5)).toBe(true);
  });

  it("takes equal infinities as close and NaN as never close (equal_nan is False)", () => {
    expect(isCloseFloat32(Infinity, Infinity, 1e-5, 1e-5)).toBe(true);
    expect(isCloseFloat32(-Infinity, Infinity, 1e-5, 1e-5)).toBe(false);
    expect(isCloseFloat32(Number.NaN, Number.NaN, 1e-5, 1e-5)).toBe(false);
    expect(isCloseFloat32(1, Number.NaN, 1e-5, 1e-5)).toBe(false);
  });
});

describe("what slime's own assertion will say on the playground's inputs", () => {
  it("uses the tolerances of slime's tests/test_discounted_returns.py", () => {
    expect(SLIME_TOLERANCES).toEqual({
      discounted: { atol: 1e-4, rtol: 1e-5 },
      gae: { atol: 1e-5, rtol: 1e-5 },
      reinforce_pp: { atol: 1e-5, rtol: 1e-5 },
    });
  });

  it("predicts the failure slime's real functions give at γ = 0.99999 over 4 × 5000 (GAE, λ = 1)", () => {
    const p = predictSlimeTolerance(long("gae", { lambd: 1 }));
    // Measured with slime's chunked_gae and vanilla_gae (torch 1.13.1, netlib BLAS): 6,559 elements
    // not close; vanilla_gae is 1.8e-3 off the float64 truth (docs/pytest-export.md).
    expect(p.verdict).toBe("fails");
    expect(p.over).toBe(6559);
    expect(p.elements).toBe(40000);
    const advantages = p.outputs.find((o) => o.name === "advantages");
    expect(advantages?.serialError).toBeCloseTo(1.82e-3, 4);
    expect(advantages?.serialOver).toBeGreaterThan(0);
    expect(p.summary).toBe(
      "slime's own tolerance (atol 1e-5, rtol 1e-5) fails on 6,559 of 40,000 elements here: float32 loop off the float64 truth by 1.8e-3, slime's chunked by 1.8e-3; the float32 loop itself is further than atol + rtol·|x| from the truth on 26,036 elements.",
    );
  });

  it("calls a pass too close to call when the worst element is near slime's tolerance", () => {
    // Measured with slime's real functions: 0 elements over, the worst at 0.968 of its tolerance.
    const p = predictSlimeTolerance(long("discounted"));
    expect(p.over).toBe(0);
    expect(p.worstFraction).toBeCloseTo(0.968, 3);
    expect(p.worstFraction).toBeGreaterThanOrEqual(NEAR_FRACTION);
    expect(p.verdict).toBe("near");
    expect(p.summary).toContain("holds here, but the worst element uses 97% of it");
  });

  it("passes the teaching examples with margin", () => {
    for (const id of ["reward-at-eos", "kl-on-tool-tokens-fixed", "padding-summed"]) {
      const state = exampleById(id)?.state as PlaygroundState;
      const p = predictSlimeTolerance(state);
      expect(p.verdict, id).toBe("passes");
      expect(p.worstFraction, id).toBeLessThan(0.5);
    }
  });

  it("counts the NaN a non-finite input spreads as failures of slime's assertion", () => {
    const p = predictSlimeTolerance(exampleById("nan-one-token")?.state as PlaygroundState);
    // Row 1's NaN at token 140 (C 64): the serial loop loses tokens 0–140, the chunked scan 0–171.
    expect(p.nonFinite).toBe(172);
    expect(p.over).toBe(172);
    expect(p.verdict).toBe("fails");
    expect(p.summary).toContain("172 elements of slime's chunked result are NaN or ±inf");
  });

  it("scans REINFORCE++ in slime's chunks of 128 whatever the playground's chunk size", () => {
    const state = { ...(exampleById("kl-on-tool-tokens-fixed")?.state as PlaygroundState), chunkSize: 1 };
    const kl = (b: number) => Array.from({ length: 300 }, (_, t) => 0.01 * (((t + b) * 7919) % 13));
    const rows = Array.from({ length: 2 }, (_, b) => ({ length: 300, outcome: 1, kl: kl(b) }));
    const wide: PlaygroundState = { ...state, data: { source: "inline", rows } };
    const sides = slimeSides(wide);
    const serialAsChunked = slimeSides({ ...wide, chunkSize: 128 });
    expect(Array.from(sides.chunked.returns)).toEqual(Array.from(serialAsChunked.chunked.returns));
    // With chunks of 1 the chunked scan would be the serial loop, bit for bit: it is not.
    expect(Array.from(sides.chunked.returns)).not.toEqual(Array.from(sides.serial.returns));
  });
});
