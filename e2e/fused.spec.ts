/**
 * The fused WGSL strategy on WebGPU (SwiftShader here): every layout, forced through the
 * SCANLAB_FUSED_LAYOUT flag of the worker's tfjs, on awkward shapes and discounts, each output
 * within its per-element bound of core's float64 reference (the conformance view judges), the
 * trace within bound of core's float32 chunked scan, and no tensor left behind.
 */
import { expect, type Page, test, type Worker } from "@playwright/test";
import {
  type Batch,
  chunkedDiscountedReturns,
  type ScanProblem,
  scanErrorBound,
  serialDiscountedReturns,
} from "../src/core";
import { normals, seededRandom } from "../src/core/testRandom";
import { buildCase, buildCaseFile } from "../src/io/caseBuilder";
import { unseenCaseFile } from "../src/testing/unseenCases";
import { loadCaseFile, openConformance, publicCasesText } from "./conformance-page";

const LAYOUTS = ["rows", "segments"] as const;
/** The smallest normal float32. */
const MIN_NORMAL = 2 ** -126;
const DISCOUNTS = [0, 0.5, 0.99, 1];
/** [B, T, C]: T = 1, 3, 5 and others not multiples of 4 (scalar rows), B = 1, C > T, T = 8192. */
const SHAPES: [number, number, number][] = [
  [1, 1, 128],
  [2, 3, 2],
  [3, 5, 4],
  [1, 7, 512],
  [4, 8, 3],
  [2, 130, 16],
  [1, 8192, 128],
];

function awkwardCases(shapes = SHAPES): string {
  const random = seededRandom(8);
  const cases = [];
  for (const [rows, cols, chunkSize] of shapes) {
    for (const discount of DISCOUNTS) {
      const rewards = { rows, cols, data: normals(random, rows * cols) };
      cases.push(
        buildCase({ kind: "discounted", rewards, discount, chunkSize }, `B${rows}_T${cols}_C${chunkSize}_d${discount}`),
      );
    }
  }
  const gae: ScanProblem = {
    kind: "gae",
    rewards: { rows: 2, cols: 301, data: normals(random, 602) },
    values: { rows: 2, cols: 301, data: normals(random, 602) },
    gamma: 0.99,
    lambd: 0.95,
    chunkSize: 64,
  };
  cases.push(buildCase(gae, "gae_B2_T301"));
  const lengths = [5, 77, 1];
  const rpp: ScanProblem = {
    kind: "reinforce_pp",
    batch: {
      rewards: [1, -0.5, 2],
      kl: lengths.map((L) => normals(random, L, 0.05)),
      lossMasks: lengths.map((L) => Array.from({ length: L }, (_, t) => (t % 3 === 1 ? 0 : 1))),
    },
    klCoef: 0.1,
    gamma: 0.99,
    chunkSize: 32,
  };
  cases.push(buildCase(rpp, "rpp_ragged"));
  return JSON.stringify(buildCaseFile(cases));
}

/** Two-level past MAX_DIRECT_CHUNKS: 1050 chunks, whose ends are scanned in second-level chunks. */
const TWO_LEVEL_SHAPES: [number, number, number][] = [...SHAPES, [1, 2100, 2]];

/** The engine's worker: the one whose global scope holds tfjs's engine. */
async function engineWorker(page: Page): Promise<Worker> {
  await expect(page.getByTestId("backend")).toHaveText("webgpu", { timeout: 30_000 });
  for (const worker of page.workers()) {
    if (await worker.evaluate(() => "_tfengine" in globalThis)) return worker;
  }
  throw new Error("no worker runs tfjs");
}

/** Forces a layout in the worker's tfjs; returns the number of live tensors there. */
function forceLayout(worker: Worker, layout: string): Promise<number> {
  return worker.evaluate((name) => {
    const engine = (globalThis as unknown as { _tfengine: TfEngine })._tfengine;
    engine.ENV.set("SCANLAB_FUSED_LAYOUT", name);
    return engine.memory().numTensors;
  }, layout);
}

interface TfTensor {
  data(): Promise<Float32Array>;
  dispose(): void;
}
interface TfEngine {
  ENV: { set(name: string, value: string): void };
  memory(): { numTensors: number };
  makeTensor(values: Float32Array, shape: number[], dtype: string): TfTensor;
  runKernel(name: string, inputs: Record<string, TfTensor>, attrs: Record<string, number>): TfTensor;
}

async function expectAllPassed(page: Page, count: number, timeout = 60_000, backend = "webgpu"): Promise<void> {
  await expect(page.getByTestId("conformance-summary")).toHaveText(`${count} passed, 0 failed`, { timeout });
  await expect(page.getByTestId("backend")).toHaveText(backend);
  await expect(page.getByTestId("error-message")).toHaveCount(0);
}

test("every fused layout passes awkward shapes and discounts within each element's bound, leaking no tensor", async ({
  page,
}) => {
  const problems = await openConformance(page, "backend=webgpu&strategy=fused");
  const worker = await engineWorker(page);
  const file = awkwardCases();
  const count = JSON.parse(file).cases.length;
  for (const [i, layout] of LAYOUTS.entries()) {
    const before = await forceLayout(worker, layout);
    if (i === 0) await loadCaseFile(page, "awkward.json", file);
    else await page.getByRole("button", { name: "Run again" }).click();
    await expectAllPassed(page, count);
    await expect(page.getByTestId("strategy-select")).toHaveValue("fused");
    expect(await forceLayout(worker, "auto")).toBe(before);
  }
  expect(problems).toEqual([]);
});

test("the fused trace equals core's chunked trace within bound, in every layout, for the returns too", async ({
  page,
}) => {
  const problems = await openConformance(page, "backend=webgpu&strategy=fused");
  const worker = await engineWorker(page);
  const random = seededRandom(11);
  for (const layout of LAYOUTS) {
    for (const [rows, cols, chunkSize] of [
      [3, 5, 2],
      [1, 7, 512],
      [2, 1030, 128],
    ]) {
      for (const discount of [0, 0.5, 0.99, 1]) {
        const data = Float32Array.from(normals(random, rows * cols));
        const got = await worker.evaluate(
          async (a) => {
            const engine = (globalThis as unknown as { _tfengine: TfEngine })._tfengine;
            engine.ENV.set("SCANLAB_FUSED_LAYOUT", a.layout);
            const before = engine.memory().numTensors;
            const x = engine.makeTensor(Float32Array.from(a.data), [a.rows, a.cols], "float32");
            const nChunks = Math.ceil(a.cols / a.chunkSize);
            const attrs = { discount: a.discount, chunkSize: a.chunkSize, nChunks };
            const returns = engine.runKernel("ScanlabFusedScan", { x }, attrs);
            const packed = engine.runKernel("ScanlabFusedTrace", { x }, attrs);
            const out = { returns: Array.from(await returns.data()), packed: Array.from(await packed.data()) };
            for (const t of [x, returns, packed]) t.dispose();
            engine.ENV.set("SCANLAB_FUSED_LAYOUT", "auto");
            return { ...out, leaked: engine.memory().numTensors - before };
          },
          { layout, rows, cols, chunkSize, discount, data: Array.from(data) },
        );
        expect(got.leaked).toBe(0);
        expectTraceWithinBound(
          { rows, cols, data },
          discount,
          chunkSize,
          got,
          `${layout} B${rows} T${cols} d${discount}`,
        );
      }
    }
  }
  expect(problems).toEqual([]);
});

/**
 * Returns within the serial loop's bound of float64 truth; each chunk's local scan and carry within
 * the sum of the fused (serial) and chunked bounds of core's float32 chunked trace.
 */
function expectTraceWithinBound(
  rewards: Batch<Float32Array>,
  discount: number,
  chunkSize: number,
  got: { returns: number[]; packed: number[] },
  label: string,
): void {
  const { rows, cols } = rewards;
  const truth = serialDiscountedReturns({ ...rewards, data: Float64Array.from(rewards.data) }, discount).data;
  const chunked = chunkedDiscountedReturns(rewards, discount, { chunkSize });
  const { nChunks } = chunked.trace;
  const rounding = (algorithm: "serial" | "chunked") => ({
    precision: "float32" as const,
    algorithm,
    chunkSize,
    inputRoundings: 1,
  });
  for (let b = 0; b < rows; b++) {
    const row = rewards.data.subarray(b * cols, (b + 1) * cols);
    const serialBound = scanErrorBound({ magnitudes: row }, discount, rounding("serial"));
    const chunkedBound = scanErrorBound({ magnitudes: row }, discount, rounding("chunked"));
    for (let t = 0; t < cols; t++) {
      const error = Math.abs(got.returns[b * cols + t] - truth[b * cols + t]);
      if (!(error <= serialBound[t]))
        throw new Error(`${label}: returns[${b}, ${t}] off by ${error} > ${serialBound[t]}`);
    }
    for (let c = 0; c < nChunks; c++) {
      // The chunk's values in reversed time (zeros past the row), as magnitudes in original time.
      const chunk = new Float64Array(chunkSize);
      for (let j = 0; j < chunkSize; j++) {
        const i = c * chunkSize + j;
        chunk[chunkSize - 1 - j] = i < cols ? row[cols - 1 - i] : 0;
      }
      const localSerial = scanErrorBound({ magnitudes: chunk }, discount, rounding("serial"));
      const localChunked = scanErrorBound({ magnitudes: chunk }, discount, rounding("chunked"));
      const slot = (b * nChunks + c) * (chunkSize + 1);
      for (let j = 0; j < chunkSize; j++) {
        const expected = chunked.trace.localScans[(b * nChunks + c) * chunkSize + j];
        const allowed = localSerial[chunkSize - 1 - j] + localChunked[chunkSize - 1 - j];
        const value = got.packed[slot + j];
        const error = Math.abs(value - expected);
        // WGSL lets f32 subnormals flush to zero (SwiftShader does): where core's IEEE value has
        // decayed below the normal range (a long padded tail), the device's may be 0 instead.
        const flushed = Math.abs(expected) < MIN_NORMAL && Math.abs(value) < MIN_NORMAL;
        if (!(error <= allowed || flushed)) {
          throw new Error(`${label}: local[${b}, ${c}, ${j}] off by ${error} > ${allowed}`);
        }
      }
      // The carry into chunk c is the return at reversed position cC − 1, original t = T − cC.
      const carry = got.packed[slot + chunkSize];
      const expected = chunked.trace.carriesIn[b * nChunks + c];
      const t = cols - c * chunkSize;
      const allowed = c === 0 ? 0 : serialBound[t] + chunkedBound[t];
      if (!(Math.abs(carry - expected) <= allowed))
        throw new Error(`${label}: carry[${b}, ${c}] ${carry} vs ${expected}`);
    }
  }
}

test("the public and unseen cases pass on webgpu with the fused strategy, and its menu entry is webgpu-only", async ({
  page,
}) => {
  const problems = await openConformance(page, "backend=webgpu&strategy=fused");
  await loadCaseFile(page, "public_cases.json", publicCasesText);
  await expectAllPassed(page, 33, 90_000);
  const unseen = unseenCaseFile();
  await loadCaseFile(page, "unseen.json", JSON.stringify(unseen));
  await expectAllPassed(page, unseen.cases.length, 120_000);
  await expect(page.getByTestId("strategy-select").locator("option", { hasText: "Fused" })).toHaveCount(1);

  // On wasm the menu drops fused, shows what runs instead, and the run is chunked, with a notice naming both.
  await page.getByTestId("backend-select").selectOption("wasm");
  await expect(page.getByTestId("backend")).toHaveText("wasm", { timeout: 30_000 });
  await expect(page.getByTestId("strategy-select").locator("option", { hasText: "Fused" })).toHaveCount(0);
  await expect(page.getByTestId("strategy-select")).toHaveValue("chunked");
  await expect(page.getByTestId("backend-notice")).toContainText(
    "Fused (WebGPU) does not run on wasm (its kernel is written for webgpu only): running Chunked instead",
    { timeout: 30_000 },
  );
  await expectAllPassed(page, unseen.cases.length, 120_000, "wasm");
  expect(problems).toEqual([]);
});

for (const backend of ["wasm", "webgl", "cpu"]) {
  test(`fused asked for on ${backend} by the address runs chunked with a notice, in the conformance view and the playground`, async ({
    page,
  }) => {
    const problems = await openConformance(page, `backend=${backend}&strategy=fused`);
    await loadCaseFile(page, "public_cases.json", publicCasesText);
    await expectAllPassed(page, 33, 120_000, backend);
    await expect(page.getByTestId("strategy-select")).toHaveValue("chunked");
    await expect(page.getByTestId("backend-notice")).toContainText(`Fused (WebGPU) does not run on ${backend}`);
    await page.goto(`/?backend=${backend}&strategy=fused&precision=float32-engine`);
    await expect(page.getByTestId("results")).toHaveAttribute("aria-busy", "false", { timeout: 90_000 });
    await expect(page.getByTestId("backend-notice")).toContainText(`Fused (WebGPU) does not run on ${backend}`);
    await expect(page.getByTestId("strategy-select")).toHaveValue("chunked");
    expect(problems).toEqual([]);
  });
}

test("two-level on webgpu, its carries summed by the ScanlabChunkCarries kernel, passes awkward shapes within bound", async ({
  page,
}) => {
  const problems = await openConformance(page, "backend=webgpu&strategy=two-level");
  const worker = await engineWorker(page);
  const file = awkwardCases(TWO_LEVEL_SHAPES);
  await loadCaseFile(page, "two-level.json", file);
  await expectAllPassed(page, JSON.parse(file).cases.length);
  await expect(page.getByTestId("strategy-select")).toHaveValue("two-level");

  // The kernel itself (registered by the runs above): each carry is the sum of the earlier chunk
  // ends times their powers, within the rounding of a sum of that many terms.
  const random = seededRandom(12);
  for (const [rows, nChunks, chunkSize] of [
    [1, 1, 4],
    [3, 9, 5],
    [2, 1024, 3],
  ]) {
    const scans = Float32Array.from(normals(random, rows * nChunks * chunkSize));
    const powers = Float32Array.from({ length: nChunks }, (_, j) => 0.97 ** j);
    const got = await worker.evaluate(
      async (a) => {
        const engine = (globalThis as unknown as { _tfengine: TfEngine })._tfengine;
        const before = engine.memory().numTensors;
        const x = engine.makeTensor(Float32Array.from(a.scans), [a.rows, a.nChunks, a.chunkSize], "float32");
        const p = engine.makeTensor(Float32Array.from(a.powers), [a.nChunks], "float32");
        const carries = engine.runKernel("ScanlabChunkCarries", { scans: x, powers: p }, {});
        const out = Array.from(await carries.data());
        for (const t of [x, p, carries]) t.dispose();
        return { carries: out, leaked: engine.memory().numTensors - before };
      },
      { rows, nChunks, chunkSize, scans: Array.from(scans), powers: Array.from(powers) },
    );
    expect(got.leaked).toBe(0);
    for (let b = 0; b < rows; b++) {
      for (let c = 0; c < nChunks; c++) {
        let sum = 0;
        let magnitude = 0;
        for (let k = 0; k < c; k++) {
          const term = scans[(b * nChunks + k) * chunkSize + chunkSize - 1] * powers[c - 1 - k];
          sum += term;
          magnitude += Math.abs(term);
        }
        const error = Math.abs(got.carries[b * nChunks + c] - sum);
        if (!(error <= (c + 1) * 2 ** -23 * magnitude)) {
          throw new Error(`carry[${b}, ${c}] of ${nChunks} chunks: ${got.carries[b * nChunks + c]} vs ${sum}`);
        }
      }
    }
  }
  expect(problems).toEqual([]);
});
