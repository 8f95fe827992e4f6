import { beforeAll, describe, expect, it } from "vitest";
import { type ChunkTrace, chunkedDiscountedReturns, chunkedGae, maxAbsError, reinforcePPReturns } from "../core";
import { type Strategy, strategiesFor } from "../names/strategies";
import { intermediateTolerance, maskWithHoles, normals, seeded, useCpuBackend } from "../testing/engineTestKit";
import { runProblem } from "./runProblem";

/** Every strategy the cpu backend runs (fused is webgpu-only: e2e/fused.spec.ts tests it). */
const STRATEGIES = strategiesFor("cpu");

const random = seeded(11);
const rect = (rows: number, cols: number) => ({ rows, cols, data: Float32Array.from(normals(random, rows * cols)) });

/** Same layout, and every intermediate within the float32 rule of core's float32 trace. */
function expectSameTrace(actual: ChunkTrace, core: ChunkTrace, longestRow: number, ...inputs: ArrayLike<number>[]) {
  const { chunkSize, nChunks, pad } = core;
  expect({ chunkSize: actual.chunkSize, nChunks: actual.nChunks, pad: actual.pad }).toEqual({
    chunkSize,
    nChunks,
    pad,
  });
  const tolerance = intermediateTolerance(longestRow, ...inputs, core.localScans, core.carriesIn);
  expect(maxAbsError(actual.localScans, core.localScans), "localScans").toBeLessThanOrEqual(tolerance);
  expect(maxAbsError(actual.carriesIn, core.carriesIn), "carriesIn").toBeLessThanOrEqual(tolerance);
}

/** The chunk size core must use to describe a strategy's trace: per-token is chunks of one. */
const traceChunk = (strategy: Strategy, chunkSize: number) => (strategy === "per-token" ? 1 : chunkSize);

beforeAll(useCpuBackend);

describe.each(STRATEGIES)("the %s strategy's trace", (strategy) => {
  it.each([
    [1000, 128, 0.99],
    [129, 16, 0.9],
    [37, 4, 0.5],
    [5, 128, 1],
    [300, 1, 0.97],
    [130, 16, 0],
  ])("agrees with core's for T = %i, C = %i, d = %f", async (T, chunkSize, discount) => {
    const rewards = rect(3, T);
    const run = await runProblem({ kind: "discounted", rewards, discount, chunkSize }, strategy);
    const core = chunkedDiscountedReturns(rewards, discount, { chunkSize: traceChunk(strategy, chunkSize) }).trace;
    expectSameTrace(run.trace, core, T, rewards.data);
  });

  it("agrees with core's for GAE (the scan over the residuals)", async () => {
    const rewards = rect(2, 300);
    const values = rect(2, 300);
    const run = await runProblem({ kind: "gae", rewards, values, gamma: 0.99, lambd: 0.95, chunkSize: 16 }, strategy);
    const core = chunkedGae(rewards, values, 0.99, 0.95, { chunkSize: traceChunk(strategy, 16) });
    expectSameTrace(run.trace, core.trace, 300, rewards.data, values.data, core.deltas.data);
  });

  it("agrees with core's for REINFORCE++ (the scan over the padded batch)", async () => {
    const lengths = [40, 257, 3];
    const batch = {
      rewards: lengths.map(() => Math.fround(random() * 2 - 1)),
      kl: lengths.map((L) => Float32Array.from(normals(random, L, 0.1))),
      lossMasks: lengths.map((L) => maskWithHoles(random, L)),
    };
    const run = await runProblem({ kind: "reinforce_pp", batch, klCoef: 0.1, gamma: 0.99, chunkSize: 128 }, strategy);
    const core = reinforcePPReturns(batch, 0.1, 0.99, { chunkSize: traceChunk(strategy, 128) });
    expectSameTrace(run.trace, core.trace, 257, core.padded.data);
  });
});
