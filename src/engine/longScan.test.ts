import { beforeAll, describe, expect, it } from "vitest";
import { chunkedDiscountedReturns, maxAbsError, serialDiscountedReturns, solve } from "../core";
import { strategiesFor } from "../names/strategies";
import {
  expectWithinBound,
  intermediateTolerance,
  maskWithHoles,
  normals,
  seeded,
  useCpuBackend,
} from "../testing/engineTestKit";
import { runProblem } from "./runProblem";
import { MAX_DIRECT_CHUNKS } from "./twoLevelScan";

/** Every strategy the cpu backend runs (fused is webgpu-only: e2e/fused.spec.ts tests it). */
const STRATEGIES = strategiesFor("cpu");

// Long horizons, where float32 error grows: γ = 0.999 over 8192 tokens (ALGORITHM.md §7.1 measured
// 5.0e-4 for slime's own scan, mostly from rounding γ to float32) and a ragged REINFORCE++ batch.
const random = seeded(2026);
const rewards = { rows: 3, cols: 8192, data: normals(random, 3 * 8192) };
const discounted = { kind: "discounted" as const, rewards, discount: 0.999, chunkSize: 128 };
const truth = solve(discounted, "serial").outputs;

const lengths = Array.from({ length: 16 }, (_, i) => (i === 0 ? 3000 : 1 + Math.floor(random() * 3000)));
const batch = {
  rewards: lengths.map(() => Math.fround(random() * 4 - 2)),
  kl: lengths.map((L) => normals(random, L, 0.05)),
  lossMasks: lengths.map((L) => maskWithHoles(random, L)),
};
const rpp = { kind: "reinforce_pp" as const, batch, klCoef: 0.05, gamma: 0.999, chunkSize: 128 };
const rppTruth = solve(rpp, "serial").outputs;

beforeAll(useCpuBackend);

describe.each(STRATEGIES)("the %s strategy on long sequences", (strategy) => {
  it("every output within its error bound of the float64 truth for B = 3, T = 8192, γ = 0.999", async () => {
    const run = await runProblem(discounted, strategy);
    const worst = expectWithinBound(discounted, strategy, run.outputs, truth);
    console.info(`${strategy} T=8192: worst error ${worst.toPrecision(2)} of its bound, ${run.millis.toFixed(0)} ms`);
  });

  it("every output within its bound for 16 ragged REINFORCE++ sequences up to 3000 tokens with holes", async () => {
    const run = await runProblem(rpp, strategy);
    if (run.outputs.kind !== "reinforce_pp") throw new Error("wrong output kind");
    expect(run.outputs.returns.map((row) => row.length)).toEqual(lengths);
    const worst = expectWithinBound(rpp, strategy, run.outputs, rppTruth);
    console.info(
      `${strategy} REINFORCE++: worst error ${worst.toPrecision(2)} of its bound, ${run.millis.toFixed(0)} ms`,
    );
  });
});

describe("the two-level strategy with more chunks than one second-level kernel holds", () => {
  it(`recurses past ${MAX_DIRECT_CHUNKS} chunks and keeps returns and carries right`, async () => {
    const cols = 3001;
    const chunkSize = 2; // 1501 chunks
    const long = { rows: 2, cols, data: rewards.data.slice(0, 2 * cols) };
    const run = await runProblem({ kind: "discounted", rewards: long, discount: 0.999, chunkSize }, "two-level");
    if (run.outputs.kind !== "discounted") throw new Error("wrong output kind");
    const problem = { kind: "discounted" as const, rewards: long, discount: 0.999, chunkSize };
    expectWithinBound(problem, "two-level", run.outputs, solve(problem, "serial").outputs);
    const longTruth = serialDiscountedReturns(long, Math.fround(0.999)).data;
    const core = chunkedDiscountedReturns(long, Math.fround(0.999), { chunkSize }).trace;
    expect(run.trace.nChunks).toBeGreaterThan(MAX_DIRECT_CHUNKS);
    expect(maxAbsError(run.trace.carriesIn, core.carriesIn)).toBeLessThanOrEqual(
      intermediateTolerance(cols, long.data, longTruth),
    );
  });
});
