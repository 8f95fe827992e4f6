import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { chunkedDiscountedReturns } from "../chunkedScan";
import { chunkedGae } from "../gae";
import { reinforcePPReturns } from "../reinforcePP";
import { ScanInputError } from "../validation";
import { gatherPieces, reassemble, sameBits, sliceBack, zeroFilledPieces } from "./gather";
import { cpLayout } from "./layout";
import { ppoGaeByRank, ppoGaeCp1, vectorDifference } from "./ppoByRank";
import { reinforcePPByRank } from "./reinforcePPByRank";
import { discountedByRank, gaeByRank } from "./scanByRank";

const seed = Number(process.env.SCANLAB_FC_SEED ?? 20261129);
fc.configureGlobal({ seed });

const f32 = (values: number[]) => Float32Array.from(values);

describe("gather and slice-back", () => {
  it("follow the worked example: T = 20, R = 12, cp_size 2", () => {
    const layout = cpLayout(20, 12, 2);
    const full = f32([10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21]);
    const [rank0, rank1] = sliceBack(layout, full);
    expect([...rank0]).toEqual([18, 19, 20, 21]);
    expect([...rank1]).toEqual([10, 11, 12, 13, 14, 15, 16, 17]);
    expect([...zeroFilledPieces(layout, 0, rank0)]).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 18, 19, 20, 21]);
    expect(sameBits(gatherPieces(layout, [rank0, rank1]), full)).toBe(true);
    expect(sameBits(reassemble(layout, [rank0, rank1]), full)).toBe(true);
  });

  it("turn a −0 into +0, as the all-reduce's sum does", () => {
    const layout = cpLayout(6, 2, 2);
    const gathered = gatherPieces(layout, sliceBack(layout, f32([-0, 1])));
    expect(Object.is(gathered[0], 0)).toBe(true);
  });

  it("refuse local vectors of the wrong length", () => {
    const layout = cpLayout(20, 12, 2);
    expect(() => gatherPieces(layout, [f32([1]), f32([])])).toThrow("rank 0 holds 4 response tokens, got 1 values");
  });
});

/** Samples of one batch: a response length, a prompt length, float32 KL (−0 included), masks with at least one 1. */
const samples = (maxResponse: number) =>
  fc.array(
    fc.record({ R: fc.integer({ min: 1, max: maxResponse }), P: fc.integer({ min: 1, max: 600 }) }).chain(({ R, P }) =>
      fc.record({
        R: fc.constant(R),
        P: fc.constant(P),
        kl: fc.array(fc.float({ min: -10, max: 10, noNaN: true }), { minLength: R, maxLength: R }),
        mask: fc.array(fc.constantFrom(0, 1), { minLength: R, maxLength: R }).map((m) => {
          m[m.length - 1] = m.includes(1) ? m[m.length - 1] : 1;
          return m;
        }),
        reward: fc.float({ min: -5, max: 5, noNaN: true }),
      }),
    ),
    { minLength: 1, maxLength: 3 },
  );

describe("REINFORCE++ rank by rank", () => {
  it("reassembles to the cp_size 1 result bit for bit, for every cp_size 1–8 and responses up to 3000 tokens", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 8 }),
        samples(3000),
        fc.constantFrom(1, 7, 128),
        fc.constantFrom(0.99, 1, 0.5),
        (n, batch, chunkSize, gamma) => {
          const input = {
            rewards: batch.map((s) => s.reward),
            kl: batch.map((s) => f32(s.kl)),
            lossMasks: batch.map((s) => s.mask),
          };
          const layouts = batch.map((s) => cpLayout(s.P + s.R, s.R, n));
          const cp = reinforcePPByRank(input, layouts, 0.05, gamma, { chunkSize });
          const cp1 = reinforcePPReturns(input, 0.05, gamma, { chunkSize });
          cp.reassembled.forEach((returns, i) => {
            expect(sameBits(returns, cp1.returns[i])).toBe(true);
            // The same numbers; split over ranks, a −0 comes back +0 from the sum.
            expect([...cp.gatheredKl[i]]).toEqual([...input.kl[i]].map((x) => (n === 1 ? x : x + 0)));
          });
          // Each rank keeps exactly its pieces: as many values as it holds tokens.
          cp.localReturns.forEach((rows, r) => {
            rows.forEach((local, i) => {
              expect(local.length).toBe(layouts[i].ranks[r].localLength);
            });
          });
        },
      ),
      { numRuns: 40 },
    );
  });

  it("slices the returns of the worked example to each rank in local order", () => {
    const kl = f32([0.5, 0.25, 0, 1, 2, 0.5, 0.25, 0, 1, 2, 0.5, 0.25]);
    const input = { rewards: [1], kl: [kl], lossMasks: [new Array(12).fill(1)] };
    const run = reinforcePPByRank(input, [cpLayout(20, 12, 2)], 0.1, 0.9, { chunkSize: 4 });
    const cp1 = reinforcePPReturns(input, 0.1, 0.9, { chunkSize: 4 }).returns[0];
    expect([...run.localReturns[0][0]]).toEqual([...cp1.subarray(8, 12)]);
    expect([...run.localReturns[1][0]]).toEqual([...cp1.subarray(0, 8)]);
    expect([...run.localKl[0][0]]).toEqual([...kl.subarray(8, 12)]);
  });
});

describe("PPO (GAE) rank by rank", () => {
  const ppoSample = (R: number, reward: number) => ({
    kl: f32(Array.from({ length: R }, (_, t) => 0.01 * (t + 1))),
    values: f32(Array.from({ length: R }, (_, t) => 0.1 * t)),
    reward,
  });

  it("equals cp_size 1 bit for bit wherever rank 0's last element is the last response token", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 8 }), samples(1500), (n, batch) => {
        const layouts = batch.map((s) => cpLayout(s.P + s.R, s.R, n));
        fc.pre(layouts.every((l) => l.ranks[0].pieces[1].response !== null || n === 1));
        const input = batch.map((s) => ({ kl: f32(s.kl), values: f32(s.kl.map((x) => x / 2)), reward: s.reward }));
        const cp = ppoGaeByRank(input, layouts, 0.05, 0.99, 0.95);
        const cp1 = ppoGaeCp1(input, 0.05, 0.99, 0.95);
        cp.reassembled.forEach((adv, i) => {
          expect(cp.placements[i].correct).toBe(true);
          expect(sameBits(adv, cp1.advantages[i])).toBe(true);
        });
      }),
      { numRuns: 30 },
    );
  });

  it("puts the reward on rank 0's last element, away from the last token in a short sample", () => {
    // T = 13, R = 11, cp_size 2: rank 0 holds response tokens 0–2 only.
    const sample = ppoSample(11, 1);
    const run = ppoGaeByRank([sample], [cpLayout(13, 11, 2)], 0.5, 1, 1);
    const cp1 = ppoGaeCp1([sample], 0.5, 1, 1);
    expect(run.placements[0]).toEqual({ lastToken: 10, landsAt: 2, correct: false });
    expect(run.gatheredRewards[0][2]).toBe(Math.fround(Math.fround(sample.kl[2] * -0.5) + 1));
    expect(run.gatheredRewards[0][10]).toBe(Math.fround(sample.kl[10] * -0.5));
    expect(cp1.rewards[0][10]).toBe(Math.fround(Math.fround(sample.kl[10] * -0.5) + 1));
    // With γ = λ = 1 the advantage of token t sums the rewards from t on: tokens 3–10 lose the reward.
    const adv = run.reassembled[0];
    for (let t = 3; t <= 10; t++) expect(cp1.advantages[0][t] - adv[t]).toBeCloseTo(1, 5);
    for (let t = 0; t < 3; t++) expect(adv[t]).toBeCloseTo(cp1.advantages[0][t], 5);
    const diff = vectorDifference(adv, cp1.advantages[0]);
    expect(diff.maxAbs).toBeCloseTo(1, 5);
    expect(diff.worst).toBeGreaterThanOrEqual(3);
  });

  it("fails as slime does when rank 0 holds no response token", () => {
    // T = 13, R = 6, cp_size 2: both of rank 0's chunks miss the response's logits.
    const run = () => ppoGaeByRank([ppoSample(6, 1)], [cpLayout(13, 6, 2)], 0.5, 1, 1);
    expect(run).toThrow(ScanInputError);
    expect(run).toThrow("index -1 is out of bounds for dimension 0 with size 0");
  });
});

describe("discounted returns and GAE on per-token rewards, rank by rank", () => {
  it("reassemble to the cp_size 1 scan bit for bit", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 8 }), samples(2000), fc.constantFrom(1, 16, 128), (n, batch, chunkSize) => {
        const layouts = batch.map((s) => cpLayout(s.P + s.R, s.R, n));
        const rewards = batch.map((s) => f32(s.kl));
        const values = batch.map((s) => f32(s.kl.map((x) => x * 0.5 + 1)));
        const cols = Math.max(...batch.map((s) => s.R));
        const padded = (rows: Float32Array[]) => {
          const data = new Float32Array(rows.length * cols);
          rows.forEach((r, b) => {
            data.set(r, b * cols);
          });
          return { rows: rows.length, cols, data };
        };
        const disc = discountedByRank(rewards, layouts, 0.99, { chunkSize });
        const disc1 = chunkedDiscountedReturns(padded(rewards), 0.99, { chunkSize }).returns.data;
        const gae = gaeByRank(rewards, values, layouts, 0.99, 0.95, { chunkSize });
        const gae1 = chunkedGae(padded(rewards), padded(values), 0.99, 0.95, { chunkSize }).advantages.data;
        batch.forEach((s, b) => {
          expect(sameBits(disc.reassembled[b], disc1.subarray(b * cols, b * cols + s.R))).toBe(true);
          expect(sameBits(gae.reassembled[b], gae1.subarray(b * cols, b * cols + s.R))).toBe(true);
        });
      }),
      { numRuns: 25 },
    );
  });
});
