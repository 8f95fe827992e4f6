import * as tf from "@tensorflow/tfjs-core";
import { beforeAll, expect, it } from "vitest";
import type { ScanProblem } from "../core";
import { strategiesFor } from "../names/strategies";
import { maskWithHoles, normals, seeded, useCpuBackend } from "../testing/engineTestKit";
import { runProblem } from "./runProblem";

/** Every strategy the cpu backend runs (fused is webgpu-only: e2e/fused.spec.ts tests it). */
const STRATEGIES = strategiesFor("cpu");

beforeAll(useCpuBackend);

it("leaves no tensor behind after 1000 runs of every kind and strategy, failed runs included", async () => {
  const random = seeded(5);
  const size = () => 1 + Math.floor(random() * 40);
  const rect = (rows: number, cols: number) => ({ rows, cols, data: normals(random, rows * cols) });
  const problem = (i: number): ScanProblem => {
    const chunkSize = 1 + Math.floor(random() * 16);
    const discount = [0, 0.5, 0.99, 1][i % 4];
    switch (i % 5) {
      case 0:
      case 1:
        return { kind: "discounted", rewards: rect(1 + (i % 3), i % 50 === 0 ? 0 : size()), discount, chunkSize };
      case 2: {
        const cols = size();
        return { kind: "gae", rewards: rect(2, cols), values: rect(2, cols), gamma: discount, lambd: 0.95, chunkSize };
      }
      default: {
        const lengths = Array.from({ length: i % 7 === 0 ? 0 : 1 + (i % 4) }, size);
        // Every 11th batch has a fully masked sequence: the run fails, and must still leak nothing.
        const lossMasks = lengths.map((L, b) =>
          i % 11 === 0 && b === 0 ? new Array<number>(L).fill(0) : maskWithHoles(random, L),
        );
        const batch = {
          rewards: lengths.map(() => Math.fround(random())),
          kl: lengths.map((L) => normals(random, L, 0.1)),
          lossMasks,
        };
        return { kind: "reinforce_pp", batch, klCoef: 0.1, gamma: discount, chunkSize };
      }
    }
  };

  await runProblem(problem(1), "chunked"); // the backend's own first-use state, outside the count
  const before = tf.memory();
  let failed = 0;
  for (let i = 0; i < 1000; i++) {
    await runProblem(problem(i), STRATEGIES[i % STRATEGIES.length]).catch(() => failed++);
  }
  const after = tf.memory();
  expect(failed).toBeGreaterThan(0);
  expect(after.numTensors).toBe(before.numTensors);
  expect(after.numDataBuffers).toBe(before.numDataBuffers);
  expect(after.numBytes).toBe(before.numBytes);
});
