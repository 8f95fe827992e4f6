import { MathBackendCPU } from "@tensorflow/tfjs-backend-cpu";
import * as tf from "@tensorflow/tfjs-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { caseToProblem } from "../conformance";
import { ScanInputError, type ScanOutputs, type ScanProblem, serialDiscountedReturns } from "../core";
import { scanCasesOf } from "../io/scanCases";
import { type Strategy, strategiesFor } from "../names/strategies";
import { maskWithHoles, normals, seeded, useCpuBackend } from "../testing/engineTestKit";
import { unseenCaseFile } from "../testing/unseenCases";
import { scanLayout } from "./discountedScan";
import { EngineOutputError } from "./engineErrors";
import { checkEngineOutputs } from "./outputCheck";
import { prepareProblem } from "./prepareProblem";
import { runProblem } from "./runProblem";

/** Every strategy the cpu backend runs (fused is webgpu-only: e2e/fused.spec.ts tests it). */
const STRATEGIES = strategiesFor("cpu");

const random = seeded(7);
const rect = (rows: number, cols: number, scale = 1) => ({ rows, cols, data: normals(random, rows * cols, scale) });
const f32 = (values: number[]) => Float32Array.from(values);

/** Checks hand-made outputs for a problem as if a backend had returned them (with a right-sized trace). */
function check(problem: ScanProblem, outputs: ScanOutputs<Float32Array>, strategy: Strategy = "chunked"): void {
  const prepared = prepareProblem(problem);
  const { rows, cols } = prepared.kind === "reinforce_pp" ? prepared : prepared.rewards;
  const layout = scanLayout(cols, problem.chunkSize, strategy);
  const trace = {
    ...layout,
    localScans: new Float32Array(rows * layout.nChunks * layout.chunkSize),
    carriesIn: new Float32Array(rows * layout.nChunks),
  };
  checkEngineOutputs(prepared, strategy, "test", { outputs, trace });
}

/** The float32 serial scan: what a correct backend returns, to within rounding. */
function serial32(rewards: { rows: number; cols: number; data: Float32Array }, d: number): Float32Array {
  return Float32Array.from(serialDiscountedReturns(rewards, d).data);
}

beforeAll(useCpuBackend);

describe("the output check on its own", () => {
  const rewards = { rows: 2, cols: 3, data: f32([1, 2, 3, 4, 5, 6]) };
  const problem: ScanProblem = { kind: "discounted", rewards, discount: 0.5, chunkSize: 2 };

  it("accepts a correct result", () => {
    expect(() => check(problem, { kind: "discounted", returns: serial32(rewards, 0.5) })).not.toThrow();
  });

  it("names the output, row and token of an all-zero result", () => {
    expect(() => check(problem, { kind: "discounted", returns: new Float32Array(6) })).toThrow(
      new EngineOutputError(
        "the test engine returned returns = 0 at row 0, token 2, but G_t = r_t + γ·G_{t+1} gives 3 there " +
          "(r_t = 3, the next value 0, discount 0.5): off by 3, where float32 rounding allows at most 0.046875; " +
          "the backend failed without raising an error (a buffer or texture it could not allocate reads back as zeros)",
      ),
    );
  });

  it("names a NaN that finite inputs cannot explain", () => {
    const returns = serial32(rewards, 0.5);
    returns[4] = Number.NaN;
    expect(() => check(problem, { kind: "discounted", returns })).toThrow(
      "the test engine returned returns = NaN at row 1, token 1, though every input is finite and no float32 value on " +
        "the way can overflow (the largest magnitude flowing into that row is 8)",
    );
  });

  it("names an output or a trace of the wrong size", () => {
    expect(() => check(problem, { kind: "discounted", returns: new Float32Array(5) })).toThrow(
      "the test engine returned 5 values for returns, where 2×3 needs 6",
    );
    const prepared = prepareProblem(problem);
    const trace = { ...scanLayout(3, 2, "chunked"), localScans: new Float32Array(7), carriesIn: new Float32Array(4) };
    expect(() =>
      checkEngineOutputs(prepared, "chunked", "test", {
        outputs: { kind: "discounted", returns: serial32(rewards, 0.5) },
        trace,
      }),
    ).toThrow("the test engine returned 7 values for the local scans, where 2 rows × 2 chunks needs 8");
  });

  it("checks GAE's advantages and its returns = advantages + values", () => {
    const values = { rows: 1, cols: 4, data: f32([0.5, -1, 2, 0.25]) };
    const gae: ScanProblem = {
      kind: "gae",
      rewards: { rows: 1, cols: 4, data: f32([1, 0, -2, 3]) },
      values,
      gamma: 0.9,
      lambd: 0.8,
      chunkSize: 4,
    };
    const deltas = new Float32Array(4);
    const r = gae.rewards.data;
    for (let t = 0; t < 4; t++) deltas[t] = r[t] + Math.fround(0.9) * (t < 3 ? values.data[t + 1] : 0) - values.data[t];
    const advantages = serial32({ rows: 1, cols: 4, data: deltas }, Math.fround(0.9 * 0.8));
    const returns = advantages.map((a, t) => a + values.data[t]);
    expect(() => check(gae, { kind: "gae", advantages, returns })).not.toThrow();
    expect(() => check(gae, { kind: "gae", advantages, returns: new Float32Array(4) })).toThrow(
      /^the test engine returned returns = 0 at row 0, token 0, but returns_t = A_t \+ V_t gives/,
    );
    expect(() => check(gae, { kind: "gae", advantages: new Float32Array(4), returns })).toThrow(
      /^the test engine returned advantages = 0 at row 0, token 3, but A_t = δ_t \+ γλ·A_\{t\+1\} gives 2\.75 there/,
    );
  });

  it("checks every REINFORCE++ sequence, even one whose last token is masked", () => {
    const batch = { rewards: [1, 2], kl: [f32([0.1, 0.2, 0.3]), f32([0.4])], lossMasks: [[1, 1, 0], [1]] };
    const rpp: ScanProblem = { kind: "reinforce_pp", batch, klCoef: 0.1, gamma: 1, chunkSize: 2 };
    const prepared = prepareProblem(rpp);
    if (prepared.kind !== "reinforce_pp") throw new Error("not a REINFORCE++ problem");
    const { tokens } = prepared;
    const returns = tokens.map((row) => serial32({ rows: 1, cols: row.length, data: row }, 1));
    expect(() => check(rpp, { kind: "reinforce_pp", returns, tokenLevelRewards: tokens })).not.toThrow();
    const zeros = tokens.map((row) => new Float32Array(row.length));
    // Row 0 ends with a masked token (reward 0), so the zero there is right; token 1 holds the outcome reward.
    expect(() => check(rpp, { kind: "reinforce_pp", returns: zeros, tokenLevelRewards: tokens })).toThrow(
      /^the test engine returned returns = 0 at row 0, token 1, but G_t = tok_t \+ γ·G_\{t\+1\} gives 0\.98 there/,
    );
    expect(() => check(rpp, { kind: "reinforce_pp", returns: returns.slice(0, 1), tokenLevelRewards: tokens })).toThrow(
      "the test engine returned 1 values for sequences of returns, where a batch of 2 sequences needs 2",
    );
  });

  it("does not judge a row whose magnitudes can overflow float32: Inf and NaN may be genuine there", () => {
    const huge = { rows: 2, cols: 2, data: f32([3e38, 3e38, 1, 1]) };
    const p: ScanProblem = { kind: "discounted", rewards: huge, discount: 1, chunkSize: 2 };
    expect(() => check(p, { kind: "discounted", returns: f32([Infinity, 3e38, 2, 1]) })).not.toThrow();
    expect(() => check(p, { kind: "discounted", returns: f32([Number.NaN, 3e38, 2, 1]) })).not.toThrow();
    // The other row is still judged.
    expect(() => check(p, { kind: "discounted", returns: f32([Infinity, 3e38, 0, 0]) })).toThrow(/at row 1, token 1/);
    // Discount powers that overflow on their own (2^300) make any row's NaN possible (0·Inf in the kernel).
    const growing: ScanProblem = { kind: "discounted", rewards: rect(1, 300), discount: 2, chunkSize: 16 };
    expect(() => check(growing, { kind: "discounted", returns: new Float32Array(300).fill(Number.NaN) })).not.toThrow();
  });
});

describe("a backend whose matMul silently returns zeros (what webgpu did with a 1 GiB kernel)", () => {
  const name = "zero-matmul-for-test";
  beforeAll(async () => {
    tf.registerBackend(name, () => new MathBackendCPU());
    for (const kernel of tf.getKernelsForBackend("cpu")) {
      if (kernel.kernelName !== tf.BatchMatMul) tf.registerKernel({ ...kernel, backendName: name });
    }
    tf.registerKernel({
      kernelName: tf.BatchMatMul,
      backendName: name,
      kernelFunc: ({ inputs, backend, attrs }) => {
        const { a, b } = inputs as { a: tf.TensorInfo; b: tf.TensorInfo };
        const { transposeA, transposeB } = attrs as { transposeA: boolean; transposeB: boolean };
        const rank = a.shape.length;
        const m = transposeA ? a.shape[rank - 1] : a.shape[rank - 2];
        const n = transposeB ? b.shape[b.shape.length - 2] : b.shape[b.shape.length - 1];
        const shape = [...a.shape.slice(0, -2), m, n];
        return (backend as MathBackendCPU).makeTensorInfo(
          shape,
          "float32",
          new Float32Array(tf.util.sizeFromShape(shape)),
        );
      },
    });
    expect(await tf.setBackend(name)).toBe(true);
  });
  afterAll(async () => {
    for (const kernel of tf.getKernelsForBackend(name)) tf.unregisterKernel(kernel.kernelName, name);
    tf.removeBackend(name);
    await useCpuBackend();
  });

  it.each(["chunked", "two-level"] as const)(
    "fails the %s run with the output, row and token, and leaks nothing",
    async (strategy) => {
      const problems: [ScanProblem, RegExp][] = [
        [
          { kind: "discounted", rewards: rect(2, 50), discount: 0.9, chunkSize: 8 },
          /^the zero-matmul-for-test engine returned returns = 0 at row 0, token 49, but G_t = r_t/,
        ],
        [
          { kind: "gae", rewards: rect(2, 30), values: rect(2, 30), gamma: 0.99, lambd: 0.95, chunkSize: 4 },
          /^the zero-matmul-for-test engine returned advantages = 0 at row 0, token 29, but A_t = δ_t/,
        ],
        [
          {
            kind: "reinforce_pp",
            batch: {
              rewards: [1, -1],
              kl: [f32([0.1, 0.2, 0.3]), f32([0.4, 0.5])],
              lossMasks: [
                [1, 1, 1],
                [1, 0],
              ],
            },
            klCoef: 0.1,
            gamma: 0.99,
            chunkSize: 2,
          },
          /^the zero-matmul-for-test engine returned returns = 0 at row 0, token 2, but G_t = tok_t/,
        ],
      ];
      for (const [problem, message] of problems) {
        const before = tf.memory().numTensors;
        const error = await runProblem(problem, strategy).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(EngineOutputError);
        expect((error as Error).message).toMatch(message);
        expect(tf.memory().numTensors).toBe(before);
      }
    },
  );

  it("lets the per-token strategy, which uses no matMul, through", async () => {
    const run = await runProblem(
      { kind: "discounted", rewards: rect(2, 50), discount: 0.9, chunkSize: 8 },
      "per-token",
    );
    expect(run.backend).toBe(name);
  });
});

describe("no false alarm on real results", () => {
  const file = unseenCaseFile();

  // Per-token is left out here: it takes T dispatches (seconds at T = 20000), and each of its steps
  // is one rounding, far inside the bound; the random problems below cover it.
  it.each(["chunked", "two-level"] as const)(
    "passes every unseen case (huge, tiny, long, C = 1, C > T) on %s",
    async (strategy) => {
      for (const c of scanCasesOf(file)) {
        const error = await runProblem(caseToProblem(c, "float32"), strategy).then(
          () => undefined,
          (e: unknown) => e,
        );
        if (c.expect_error === undefined) expect(error, c.name).toBeUndefined();
        else expect(error, c.name).toBeInstanceOf(ScanInputError);
      }
    },
  );

  it.each(STRATEGIES)("passes 120 random problems of every kind, discount and magnitude on %s", async (strategy) => {
    const draw = seeded(99);
    const pick = <T>(items: T[]) => items[Math.floor(draw() * items.length)];
    for (let i = 0; i < 120; i++) {
      const cols = 1 + Math.floor(draw() * 250);
      const chunkSize = pick([1, 2, 3, 7, 16, 128, 300, 1000]);
      const discount = pick([0, 0.5, 0.9, 0.99, 0.999, 1, -0.9, 1.001]);
      const scale = pick([1e-20, 1e-3, 1, 1e6, 1e20]);
      const problem: ScanProblem =
        i % 3 === 0
          ? { kind: "discounted", rewards: rect(1 + (i % 4), cols, scale), discount, chunkSize }
          : i % 3 === 1
            ? {
                kind: "gae",
                rewards: rect(2, cols, scale),
                values: rect(2, cols, scale),
                gamma: pick([0.9, 1]),
                lambd: pick([0, 0.95, 1]),
                chunkSize,
              }
            : {
                kind: "reinforce_pp",
                batch: {
                  rewards: [scale, -scale, 1],
                  kl: [normals(random, cols, scale), normals(random, 1 + (i % 50), scale), normals(random, 3)],
                  lossMasks: [maskWithHoles(random, cols), maskWithHoles(random, 1 + (i % 50)), [1, 0, 1]],
                },
                klCoef: 0.05,
                gamma: Math.abs(discount),
                chunkSize,
              };
      await runProblem(problem, strategy);
    }
  });
});
