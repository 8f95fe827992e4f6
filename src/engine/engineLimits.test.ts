import * as tf from "@tensorflow/tfjs-core";
import { beforeAll, describe, expect, it } from "vitest";
import { caseToProblem, checkCase } from "../conformance";
import type { ScanProblem } from "../core";
import type { ScanCase } from "../io/caseSchema";
import { type Strategy, strategiesFor } from "../names/strategies";
import { largestAllocation } from "../testing/allocations";
import { normals, seeded, useCpuBackend } from "../testing/engineTestKit";
import { hostCapacity, webgpuCapacity } from "./backendCapacity";
import { EngineLimitError } from "./engineErrors";
import { checkEngineLimits } from "./engineLimits";
import { runProblem } from "./runProblem";

/** Every strategy the cpu backend runs (fused is webgpu-only: e2e/fused.spec.ts tests it). */
const STRATEGIES = strategiesFor("cpu");

const random = seeded(11);

/** The input's values: a refusal may copy them to float32 once, nothing more. */
function inputValues(problem: ScanProblem): number {
  if (problem.kind === "reinforce_pp") return problem.batch.kl.reduce((sum, row) => sum + row.length, 0);
  return problem.rewards.rows * problem.rewards.cols;
}
const rect = (rows: number, cols: number) => ({ rows, cols, data: normals(random, rows * cols) });

/** Runs a problem the engine must refuse; returns the error and proves nothing was allocated. */
async function refusal(problem: ScanProblem, strategy: Strategy): Promise<EngineLimitError> {
  const before = tf.memory();
  const { result: error, largestBytes } = await largestAllocation(() =>
    runProblem(problem, strategy).catch((e: unknown) => e),
  );
  expect(error).toBeInstanceOf(EngineLimitError);
  const after = tf.memory();
  expect(after.numTensors).toBe(before.numTensors);
  expect(after.numBytes).toBe(before.numBytes);
  expect(after.numDataBuffers).toBe(before.numDataBuffers);
  // Nor on the host: no array larger than a float32 copy of the input (the refused kernel or padded
  // batch is a thousand times that), which a timer could only suggest, and not on a loaded machine.
  expect(largestBytes).toBeLessThanOrEqual(4 * inputValues(problem));
  return error as EngineLimitError;
}

beforeAll(useCpuBackend);

describe("on the cpu backend (256 MiB per tensor)", () => {
  it.each(["chunked", "two-level"] as const)(
    "refuses a 1 GiB discount kernel (%s) before any tensor, naming the size and the limit",
    async (strategy) => {
      const problem: ScanProblem = { kind: "discounted", rewards: rect(1, 16384), discount: 0.99, chunkSize: 16384 };
      const error = await refusal(problem, strategy);
      expect(error.name).toBe("EngineLimitError");
      expect(error.message).toBe(
        "chunk size 16384 needs a 16384×16384 float32 discount kernel of 1 GiB; the engine's memory budget on cpu is " +
          "256 MiB per tensor, so the chunk size can be at most 8192 for rows of 16384 tokens",
      );
    },
  );

  it("refuses the CLI's 131072-token chunk over 32768 tokens (16 GiB) at once", async () => {
    const problem: ScanProblem = { kind: "discounted", rewards: rect(1, 32768), discount: 1, chunkSize: 131072 };
    const error = await refusal(problem, "chunked");
    expect(error.message).toContain("needs a 32768×131072 float32 discount kernel of 16 GiB");
    expect(error.message).toContain("(one chunk longer than the 32768-token rows needs only 32768 rows)");
    expect(error.message).toContain("the chunk size can be at most 8192 for rows of 32768 tokens");
  });

  it("keeps the clamp: a chunk far above T needs only T kernel rows, so it runs", async () => {
    const rewards = rect(2, 5);
    const run = await runProblem({ kind: "discounted", rewards, discount: 0.5, chunkSize: 2 ** 20 }, "chunked");
    expect(run.trace.localScans.length).toBe(2 * 2 ** 20);
    const error = await refusal(
      { kind: "discounted", rewards: rect(1, 65), discount: 0.5, chunkSize: 2 ** 20 },
      "two-level",
    );
    expect(error.message).toContain("needs a 65×1048576 float32 discount kernel of 260 MiB");
    expect(error.message).toContain("at most 1032444 for rows of 65 tokens");
  });

  it("runs the per-token strategy, which builds no kernel, at a chunk size the others refuse", async () => {
    const problem: ScanProblem = { kind: "discounted", rewards: rect(1, 600), discount: 0.99, chunkSize: 16384 };
    await refusal({ ...problem, rewards: rect(1, 9000) }, "chunked");
    const run = await runProblem(problem, "per-token");
    expect(run.outputs.kind === "discounted" && run.outputs.returns.length).toBe(600);
  });

  it.each(STRATEGIES)(
    "refuses a REINFORCE++ batch whose padding would exceed the budget before padding it (%s)",
    async (strategy) => {
      // 1024 sequences, one of 65537 tokens: a small input, but 1024×65537 values once padded.
      const lengths = Array.from({ length: 1024 }, (_, i) => (i === 0 ? 65537 : 1));
      const batch = {
        rewards: lengths.map(() => 1),
        kl: lengths.map((L) => new Float32Array(L)),
        lossMasks: lengths.map((L) => new Array<number>(L).fill(1)),
      };
      const error = await refusal({ kind: "reinforce_pp", batch, klCoef: 0.1, gamma: 0.99, chunkSize: 128 }, strategy);
      expect(error.message).toMatch(/^the 1024×65537 batch needs tensors/);
      expect(error.message).toMatch(/split the batch into smaller ones$/);
      expect(error.message).toContain("the engine's memory budget on cpu is 256 MiB per tensor");
      expect(error.message).toContain(strategy === "per-token" ? "67,109,888 float32 values" : "67,239,936 float32");
    },
  );

  it("turns the refusal into a failed verdict whose detail is the message", async () => {
    const T = 16384;
    // Small integers and discount 1: every return is an exact float32 sum, whatever the order.
    const rewards = Array.from({ length: T }, (_, t) => (t % 5) - 2);
    const returns = new Array<number>(T);
    for (let t = T - 1, sum = 0; t >= 0; t--) returns[t] = sum += rewards[t];
    const c: ScanCase = {
      name: "chunk_16384",
      kind: "discounted",
      note: "",
      seed: 0,
      max_abs_err_float32: 0,
      shape: [1, T],
      params: { discount: 1, chunk_size: T },
      inputs: { rewards },
      expected: { returns },
      chunked_float32: { returns },
    };
    const verdict = await checkCase(
      c,
      (x) => runProblem(caseToProblem(x, "float32"), "chunked").then((r) => r.outputs),
      "float32",
    );
    expect(verdict.passed).toBe(false);
    expect(verdict.maxAbsError).toBeNull();
    expect(verdict.detail).toContain("chunk size 16384 needs a 16384×16384 float32 discount kernel of 1 GiB");
  });
});

describe("the limits on their own", () => {
  const tiny = { ...hostCapacity("cpu"), maxTensorValues: 1000, tensorLimit: "this test allows 1000 values" };

  it("checks the two-level strategy's n×n carry kernel", () => {
    const shape = { rows: 1, cols: 900, chunkSize: 1 };
    expect(() => checkEngineLimits(shape, "chunked", tiny)).not.toThrow();
    expect(() => checkEngineLimits(shape, "two-level", tiny)).toThrow(
      "the 1×900 batch needs the 900×900 carry kernel of 810,000 float32 values (3.09 MiB); this test allows 1000 values: " +
        "use a larger chunk size (fewer chunks) or another strategy",
    );
  });

  it("checks the second-level scan past 1024 chunks, whose chunk ends are padded to 256", () => {
    const shape = { rows: 1, cols: 1025, chunkSize: 1 };
    const capacity = { ...tiny, maxTensorValues: 1100 };
    expect(() => checkEngineLimits(shape, "chunked", capacity)).not.toThrow();
    expect(() => checkEngineLimits(shape, "two-level", capacity)).toThrow(
      /needs the second-level scan of the chunk ends of 1,280 float32/,
    );
  });

  it("checks the data padded to whole chunks", () => {
    expect(() => checkEngineLimits({ rows: 1, cols: 997, chunkSize: 8 }, "chunked", tiny)).not.toThrow();
    expect(() => checkEngineLimits({ rows: 1, cols: 997, chunkSize: 16 }, "per-token", tiny)).not.toThrow();
    expect(() => checkEngineLimits({ rows: 1, cols: 997, chunkSize: 16 }, "chunked", tiny)).toThrow(
      "the 1×997 batch needs tensors padded to whole chunks of 16 tokens of 1,008 float32 values (3.94 KiB); " +
        "this test allows 1000 values: split the batch into smaller ones",
    );
  });

  it("refuses a matMul with more rows than webgpu can dispatch (tfjs would throw mid-run)", () => {
    const gpu = webgpuCapacity({
      maxBufferSize: 2 ** 30,
      maxStorageBufferBindingSize: 2 ** 30,
      maxComputeWorkgroupsPerDimension: 65535,
    });
    expect(() => checkEngineLimits({ rows: 2000, cols: 1024, chunkSize: 1 }, "chunked", gpu)).not.toThrow();
    expect(() => checkEngineLimits({ rows: 2100, cols: 1024, chunkSize: 1 }, "chunked", gpu)).toThrow(
      "the local scans are one matMul of 2,150,400 rows (2100 rows × 1024 chunks); tfjs's webgpu matMul computes 32 rows per workgroup " +
        "and this device dispatches at most 65535 workgroups per dimension, so at most 2,097,120 rows: use a larger chunk size or a smaller batch",
    );
    expect(() => checkEngineLimits({ rows: 2100, cols: 1024, chunkSize: 1 }, "per-token", gpu)).not.toThrow();
  });

  it("lets an empty batch through whatever the chunk size", () => {
    expect(() => checkEngineLimits({ rows: 0, cols: 10 ** 9, chunkSize: 2 ** 20 }, "chunked", tiny)).not.toThrow();
    expect(() => checkEngineLimits({ rows: 5, cols: 0, chunkSize: 2 ** 20 }, "two-level", tiny)).not.toThrow();
  });
});

describe("the fused strategy's limits", () => {
  const budget = hostCapacity("webgpu-like");
  it("needs only the batch without a trace, and refuses a trace beyond the budget by name", () => {
    // 1024 rows of 1 token with C = 65536: a tiny batch, but a 1024×1×65537 trace.
    const shape = { rows: 1024, cols: 1, chunkSize: 65536 };
    expect(() => checkEngineLimits(shape, "fused", budget, false)).not.toThrow();
    expect(() => checkEngineLimits(shape, "fused", budget)).toThrow(
      /^the 1024×1 batch needs a trace \(each chunk's local scan and carry\) of 67,109,888 float32 values .*or use a smaller chunk size$/,
    );
  });

  it("builds no kernel: a chunk size the matMul strategies refuse is fine", () => {
    const shape = { rows: 1, cols: 16384, chunkSize: 16384 };
    expect(() => checkEngineLimits(shape, "chunked", budget)).toThrow(/discount kernel/);
    expect(() => checkEngineLimits(shape, "fused", budget)).not.toThrow();
  });
});
