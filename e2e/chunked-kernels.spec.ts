/**
 * The chunked strategy's WGSL kernels on WebGPU (SwiftShader here): the local scan
 * (ScanlabLocalScan), the carry chain (ScanlabCarryChain) and the outputs (ScanlabChunkOutputs).
 * First the conformance view runs chunked on webgpu over the shapes below, judging every output
 * against its bound (and registering the kernels in the worker). Then, in the engine's worker, each
 * shape runs twice: through the kernels, and through the tfjs ops they replaced (reverse, pad,
 * matMul; a multiply and an add per chunk; multiply, add, slice, reverse). Every output of both is
 * held to its float32 bound of the float64 truth, and the differences between them are counted and
 * printed in ulps. The chain and the outputs are also run through the ops on the kernel's own local
 * scans: on a software adapter those must give the same bits (each rounds the product and then the
 * sum, as the ops do; docs/engine.md says what other adapters may do).
 */
import { expect, type Page, test, type Worker } from "@playwright/test";
import { outputErrorBounds, serialDiscountedReturns } from "../src/core";
import { normals, seededRandom } from "../src/core/testRandom";
import { discountKernelArrays } from "../src/engine/discountKernels";
import { isSoftwareAdapter } from "../src/engine/fused/fusedLayout";
import { buildCase, buildCaseFile } from "../src/io/caseBuilder";
import { loadCaseFile, openConformance } from "./conformance-page";

/**
 * [B, T, C, d]: 16 × 8192 at slime's C, partial last chunks, C > T, C = 1, and C and T that are
 * or are not multiples of 4 and 8 (every program layout of kernels/localScanKernel.ts).
 */
const SHAPES: [number, number, number, number][] = [
  [16, 8192, 128, 0.99],
  [1, 1024, 128, 0.999],
  [3, 300, 128, 0.99],
  [3, 301, 128, 0],
  [2, 5, 128, 0.9],
  [3, 37, 1, 0.95],
  [2, 130, 6, 1],
  [17, 257, 8, 0.5],
  [3, 37, 4, 0.9],
  [9, 1000, 12, 0.97],
  [2, 12, 512, 0.99],
];

interface Pieces {
  returns: number[];
  local: number[];
  carries: number[];
}

interface Runs {
  kernels: Pieces;
  ops: Pieces;
  /** The ops' chain and outputs on the kernel's local scans. */
  opsOnKernelLocal: { returns: number[]; carries: number[] };
  adapter: { vendor?: string; architecture?: string; isFallbackAdapter?: boolean };
  leaked: number;
}

/** The engine's worker: the one whose global scope holds tfjs's engine. */
async function engineWorker(page: Page): Promise<Worker> {
  await expect(page.getByTestId("backend")).toHaveText("webgpu", { timeout: 30_000 });
  for (const worker of page.workers()) {
    if (await worker.evaluate(() => "_tfengine" in globalThis)) return worker;
  }
  throw new Error("no worker runs tfjs");
}

/** Runs `data` ([rows, cols]) both ways with the engine's own discount kernels for C and d. */
function runShape(
  worker: Worker,
  rows: number,
  cols: number,
  data: ArrayLike<number>,
  chunkSize: number,
  discount: number,
): Promise<Runs> {
  const { toeplitz, carryPowers } = discountKernelArrays(discount, chunkSize, Math.min(chunkSize, cols));
  return runBothWays(worker, {
    rows,
    cols,
    chunkSize,
    data: Array.from(data),
    toeplitz: Array.from(toeplitz),
    powers: Array.from(carryPowers),
  });
}

/** Runs one shape both ways in the worker, with tfjs's kernels called by name. */
function runBothWays(
  worker: Worker,
  args: { rows: number; cols: number; chunkSize: number; data: number[]; toeplitz: number[]; powers: number[] },
): Promise<Runs> {
  return worker.evaluate(async (a) => {
    type T = { shape: number[]; data(): Promise<Float32Array>; dispose(): void };
    const engine = (
      globalThis as unknown as {
        _tfengine: {
          memory(): { numTensors: number };
          makeTensor(values: Float32Array, shape: number[], dtype: string): T;
          runKernel(name: string, inputs: Record<string, T> | T[], attrs?: Record<string, unknown>): T;
          startScope(): void;
          endScope(result?: T[]): void;
          backend: {
            device?: { adapterInfo?: { vendor?: string; architecture?: string; isFallbackAdapter?: boolean } };
          };
        };
      }
    )._tfengine;
    const before = engine.memory().numTensors;
    const { rows, cols, chunkSize } = a;
    const nChunks = Math.ceil(cols / chunkSize);
    const k = a.toeplitz.length / chunkSize;
    const run = (name: string, inputs: Record<string, T> | T[], attrs: Record<string, unknown> = {}) =>
      engine.runKernel(name, inputs, attrs);
    const reshape = (x: T, shape: number[]) => run("Reshape", { x }, { shape });
    const slice = (x: T, begin: number[], size: number[]) => run("Slice", { x }, { begin, size });

    /** chainByOps and returnsByOps (src/engine), op for op. */
    function chainOps(local: T, powers: T): T {
      const ends = reshape(slice(local, [0, 0, chunkSize - 1], [rows, nChunks, 1]), [rows, nChunks]);
      const power = slice(powers, [chunkSize - 1], [1]);
      let carry = run("Fill", [], { shape: [rows, 1], value: 0, dtype: "float32" });
      const carries = [carry];
      for (let c = 0; c + 1 < nChunks; c++) {
        carry = run("Add", { a: slice(ends, [0, c], [rows, 1]), b: run("Multiply", { a: carry, b: power }) });
        carries.push(carry);
      }
      return carries.length === 1 ? carries[0] : run("Concat", carries, { axis: 1 });
    }
    function returnsOps(local: T, carries: T, powers: T): T {
      const carried = run("Multiply", {
        a: reshape(carries, [rows, nChunks, 1]),
        b: reshape(powers, [1, 1, chunkSize]),
      });
      const global = reshape(run("Add", { a: local, b: carried }), [rows, nChunks * chunkSize]);
      const trimmed = nChunks * chunkSize > cols ? slice(global, [0, 0], [rows, cols]) : global;
      return run("Reverse", { x: trimmed }, { dims: [1] });
    }

    engine.startScope();
    const x = engine.makeTensor(Float32Array.from(a.data), [rows, cols], "float32");
    const m = engine.makeTensor(Float32Array.from(a.toeplitz), [k, chunkSize], "float32");
    const powers = engine.makeTensor(Float32Array.from(a.powers), [chunkSize], "float32");

    const localK = run("ScanlabLocalScan", { x, m }, { nChunks });
    const carriesK = run("ScanlabCarryChain", { scans: localK, powers });
    const returnsK = run("ScanlabChunkOutputs", { scans: localK, carries: carriesK, powers }, { cols });

    const width = k < chunkSize ? cols : nChunks * chunkSize;
    const reversed = run("Reverse", { x }, { dims: [1] });
    const padded =
      width > cols
        ? run(
            "PadV2",
            { x: reversed },
            {
              paddings: [
                [0, 0],
                [0, width - cols],
              ],
              constantValue: 0,
            },
          )
        : reversed;
    const product = run(
      "BatchMatMul",
      { a: reshape(padded, [(rows * width) / k, k]), b: m },
      { transposeA: false, transposeB: false },
    );
    const localO = reshape(product, [rows, nChunks, chunkSize]);
    const carriesO = chainOps(localO, powers);
    const returnsO = returnsOps(localO, carriesO, powers);

    const carriesOK = chainOps(localK, powers);
    const returnsOK = returnsOps(localK, carriesOK, powers);

    const kept = [returnsK, localK, carriesK, returnsO, localO, carriesO, returnsOK, carriesOK];
    const read = await Promise.all(kept.map(async (t) => Array.from(await t.data())));
    engine.endScope([]);
    const info = engine.backend.device?.adapterInfo;
    return {
      adapter: { vendor: info?.vendor, architecture: info?.architecture, isFallbackAdapter: info?.isFallbackAdapter },
      kernels: { returns: read[0], local: read[1], carries: read[2] },
      ops: { returns: read[3], local: read[4], carries: read[5] },
      opsOnKernelLocal: { returns: read[6], carries: read[7] },
      leaked: engine.memory().numTensors - before,
    };
  }, args);
}

/** The float32 values' distance in units in the last place (0 for equal values, NaN for a NaN on one side only). */
function ulps(a: number, b: number): number {
  if (Number.isNaN(a) || Number.isNaN(b)) return Number.isNaN(a) && Number.isNaN(b) ? 0 : Number.NaN;
  const bits = new Int32Array(new Float32Array([a, b]).buffer);
  const ordered = (i: number) => (i < 0 ? -(i & 0x7fffffff) : i);
  return Math.abs(ordered(bits[0]) - ordered(bits[1]));
}

/** How many elements differ, and by how many ulps at most. */
function differences(a: number[], b: number[]): { differ: number; maxUlps: number } {
  expect(a.length).toBe(b.length);
  let differ = 0;
  let maxUlps = 0;
  for (let i = 0; i < a.length; i++) {
    const d = ulps(a[i], b[i]);
    if (d !== 0) differ++;
    maxUlps = Math.max(maxUlps, d);
  }
  return { differ, maxUlps };
}

function sameBits(a: number[], b: number[], label: string): void {
  const x = new Uint32Array(Float32Array.from(a).buffer);
  const y = new Uint32Array(Float32Array.from(b).buffer);
  expect(x.length, label).toBe(y.length);
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) throw new Error(`${label}[${i}]: ${a[i]} against ${b[i]}`);
}

test("chunked's WGSL kernels: every output within its bound, and against the ops they replaced", async ({
  page,
}, testInfo) => {
  test.setTimeout(300_000);
  const random = seededRandom(1202);
  const problems = SHAPES.map(([rows, cols, chunkSize, discount]) => ({
    kind: "discounted" as const,
    rewards: { rows, cols, data: Float32Array.from(normals(random, rows * cols)) },
    discount,
    chunkSize,
  }));

  const pageProblems = await openConformance(page, "backend=webgpu&strategy=chunked");
  const cases = problems.map((p) => buildCase(p, `B${p.rewards.rows}_T${p.rewards.cols}_C${p.chunkSize}`));
  await loadCaseFile(page, "chunked-kernels.json", JSON.stringify(buildCaseFile(cases)));
  await expect(page.getByTestId("conformance-summary")).toHaveText(`${cases.length} passed, 0 failed`, {
    timeout: 120_000,
  });
  await expect(page.getByTestId("strategy-select")).toHaveValue("chunked");
  const worker = await engineWorker(page);

  const lines: string[] = [];
  for (const problem of problems) {
    const { rows, cols, data } = problem.rewards;
    const { chunkSize, discount } = problem;
    const label = `B${rows} T${cols} C${chunkSize} d${discount}`;
    const runs = await runShape(worker, rows, cols, data, chunkSize, discount);
    expect(runs.leaked, label).toBe(0);

    const truth = serialDiscountedReturns({ rows, cols, data: Float64Array.from(data) }, discount).data;
    const bounds = outputErrorBounds(problem, { precision: "float32", algorithm: "chunked" });
    if (bounds.kind !== "discounted") throw new Error("wrong bound kind");
    for (const [way, pieces] of [
      ["kernels", runs.kernels],
      ["ops", runs.ops],
    ] as const) {
      for (let i = 0; i < truth.length; i++) {
        const error = Math.abs(pieces.returns[i] - truth[i]);
        if (!(error <= bounds.returns[i]))
          throw new Error(
            `${label} ${way}: returns[${i}] = ${pieces.returns[i]}, off by ${error} > ${bounds.returns[i]}`,
          );
      }
    }
    if (isSoftwareAdapter(runs.adapter)) {
      sameBits(runs.kernels.carries, runs.opsOnKernelLocal.carries, `${label} carries`);
      sameBits(runs.kernels.returns, runs.opsOnKernelLocal.returns, `${label} returns`);
    }
    const parts = (["returns", "local", "carries"] as const).map((name) => {
      const { differ, maxUlps } = differences(runs.kernels[name], runs.ops[name]);
      return `${name} ${differ} of ${runs.kernels[name].length} differ (max ${maxUlps} ulp)`;
    });
    lines.push(`${label}, kernels against ops: ${parts.join(", ")}`);
  }
  const adapter = (
    await runBothWays(worker, { rows: 1, cols: 1, chunkSize: 1, data: [1], toeplitz: [1], powers: [0.5] })
  ).adapter;
  lines.push(`adapter: ${JSON.stringify(adapter)}`);
  console.info(lines.join("\n"));
  testInfo.annotations.push({ type: "kernels against ops", description: lines.join("; ") });
  expect(pageProblems).toEqual([]);
});

test("NaN and ±Inf rewards reach the same outputs through the kernels as through the ops", async ({ page }) => {
  const pageProblems = await openConformance(page, "backend=webgpu&strategy=chunked");
  const worker = await engineWorker(page);
  // The kernels register on the engine's first chunked run: one small case runs first.
  const warm = {
    kind: "discounted" as const,
    rewards: { rows: 1, cols: 8, data: new Float32Array(8) },
    discount: 0.5,
    chunkSize: 4,
  };
  await loadCaseFile(page, "warm.json", JSON.stringify(buildCaseFile([buildCase(warm, "warm")])));
  await expect(page.getByTestId("conformance-summary")).toHaveText("1 passed, 0 failed", { timeout: 60_000 });

  for (const [rows, cols, chunkSize, discount] of [
    [3, 300, 16, 0.99],
    [2, 301, 128, 0],
    [2, 40, 1, 0.5],
  ]) {
    const data = Float32Array.from(normals(seededRandom(cols), rows * cols));
    data[5] = Number.NaN;
    data[cols + 17] = Number.POSITIVE_INFINITY;
    data[cols + 2] = Number.NEGATIVE_INFINITY;
    data[2 * cols - 1] = Number.POSITIVE_INFINITY;
    const runs = await runShape(worker, rows, cols, data, chunkSize, discount);
    const label = `B${rows} T${cols} C${chunkSize} d${discount}`;
    expect(runs.leaked, label).toBe(0);
    const { kernels, ops } = runs;
    const nonFinite = kernels.returns.filter((g) => !Number.isFinite(g)).length;
    expect(nonFinite, `${label}: some returns are NaN or infinite`).toBeGreaterThan(0);
    for (let i = 0; i < kernels.returns.length; i++) {
      const [g, h] = [kernels.returns[i], ops.returns[i]];
      if (Number.isFinite(g) !== Number.isFinite(h) || (!Number.isFinite(g) && !Object.is(g, h)))
        throw new Error(`${label}: returns[${i}] is ${g} through the kernels and ${h} through the ops`);
    }
  }
  expect(pageProblems).toEqual([]);
});
