import { describe, expect, it } from "vitest";
import { conventionErrorBounds } from "../conventions/conventionBounds";
import { vanillaGae } from "../gae";
import { magnitudeScan } from "../outputBounds";
import { intBetween, normal, seededRandom } from "../seededRandom";
import { approxKl, klErrorBound } from "./klReplay";
import { ppoBoundRows, ppoReferenceRow } from "./ppoRows";
import { RowArena } from "./rowArena";

/** Every element the same float64, −0 and +0 apart. */
function sameBits(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  if (a.length !== b.length) return false;
  for (let t = 0; t < a.length; t++) if (!Object.is(a[t], b[t])) return false;
  return true;
}

function sampleOf(random: () => number, L: number) {
  const logProbs = Float32Array.from({ length: L }, () => -Math.abs(normal(random)));
  const refLogProbs = Float32Array.from(logProbs, (x) => x + 0.05 * normal(random));
  const values = Float32Array.from({ length: L }, () => normal(random));
  return { logProbs, refLogProbs, values, reward: normal(random) };
}

describe("ppo's rows in one loop", () => {
  const cases = [
    { gamma: 1, lambd: 1, klCoef: 0.02 },
    { gamma: 0.99, lambd: 0.95, klCoef: 0.05 },
    { gamma: 0.999, lambd: 0.9, klCoef: -0.01 },
  ];
  it("gives vanillaGae's advantages and returns bit for bit", () => {
    const random = seededRandom(7);
    for (const { gamma, lambd, klCoef } of cases) {
      for (const L of [1, 2, 127, 128, 129, 700]) {
        const s = sampleOf(random, L);
        const kl = approxKl(s.logProbs, s.refLogProbs, "k3");
        const rewardAt = intBetween(random, 0, L - 1);
        const tokens = kl.map((x) => x * -klCoef);
        tokens[rewardAt] += s.reward;
        const gae = vanillaGae({ rows: 1, cols: L, data: tokens }, { rows: 1, cols: L, data: s.values }, gamma, lambd);
        const row = ppoReferenceRow(kl, s.values, s.reward, rewardAt, klCoef, gamma, lambd);
        expect(row && sameBits(row.advantages, gae.advantages.data)).toBe(true);
        expect(row && sameBits(row.returns, gae.returns.data)).toBe(true);
      }
    }
  });

  it("gives way where a value is not finite, for vanillaGae to name it", () => {
    const values = new Float32Array([0.5, Number.NaN, 0.25]);
    expect(ppoReferenceRow(new Float64Array(3), values, 1, 2, 0.1, 1, 1)).toBeNull();
  });

  it("gives conventionErrorBounds' slime GAE bounds with the KL's error carried, bit for bit", () => {
    const random = seededRandom(11);
    const arena = new RowArena(1 << 12);
    for (const { gamma, lambd, klCoef } of cases) {
      for (const L of [1, 5, 128, 300, 1000]) {
        const s = sampleOf(random, L);
        // The KL the float32 run stored, and the one it would be checked against.
        const kl = Float32Array.from(approxKl(s.logProbs, s.refLogProbs, "k1"));
        const klError = klErrorBound(s.logProbs, s.refLogProbs, "k1");
        const rewardAt = intBetween(random, 0, L - 1);
        const padded = L + intBetween(random, 0, 300);
        const batch = { rewards: [s.reward], kl: [Float64Array.from(kl)], lossMasks: [new Float64Array(L).fill(1)] };
        const params = { gamma, lambd, klCoef, normalize: false };
        const own = conventionErrorBounds(
          "slime",
          "gae",
          { ...batch, values: [Float64Array.from(s.values)] },
          params,
          "float32",
          undefined,
          [rewardAt],
          padded,
        );
        // replayBounds' carry of the KL's own error, as it was written before the rows were fused.
        const carried = magnitudeScan({ magnitudes: klError.map((e) => Math.abs(klCoef) * e * 1) }, gamma * lambd);
        const returns = own.returns[0].map((b, t) => b + carried[t]);
        const advantages = own.advantages[0].map((b, t) => b + carried[t]);
        arena.reset();
        const rows = ppoBoundRows(
          kl,
          s.values,
          s.reward,
          rewardAt,
          klError,
          Math.abs(klCoef),
          gamma,
          gamma * lambd,
          padded,
          arena,
        );
        expect(sameBits(rows.advantages, advantages)).toBe(true);
        expect(sameBits(rows.returns, returns)).toBe(true);
      }
    }
  });
});
