import { readFileSync } from "node:fs";
import { expect, type Page, test } from "@playwright/test";
import {
  chunkedDiscountedReturns,
  maxAbsError,
  reinforcePPReturns,
  serialDiscountedReturns,
  serialReinforcePPReturns,
} from "../src/core";

const publicCases = readFileSync(new URL("../cases/public_cases.json", import.meta.url), "utf8");

/** Opens the conformance view and collects console errors and page errors (the page's and its worker's). */
async function openConformance(page: Page, query: string): Promise<string[]> {
  const problems: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(message.text());
  });
  page.on("pageerror", (error) => problems.push(error.message));
  page.on("worker", (worker) => {
    worker.on("console", (message) => {
      if (message.type() === "error") problems.push(`worker: ${message.text()}`);
    });
  });
  await page.goto(`/?view=conformance&${query}`);
  return problems;
}

async function loadCaseFile(page: Page, name: string, text: string): Promise<void> {
  await page
    .getByTestId("case-file-input")
    .setInputFiles({ name, mimeType: "application/json", buffer: Buffer.from(text) });
}

async function expectAllPassed(page: Page, backend: string, count: number, timeout: number): Promise<void> {
  await expect(page.getByTestId("conformance-summary")).toHaveText(`${count} passed, 0 failed`, { timeout });
  await expect(page.getByTestId("backend")).toHaveText(backend);
  await expect(page.getByTestId("error-message")).toHaveCount(0);
  await expect(page.getByTestId("backend-notice")).toHaveCount(0);
}

test("the public cases pass on webgpu", async ({ page }) => {
  const problems = await openConformance(page, "backend=webgpu");
  await loadCaseFile(page, "public_cases.json", publicCases);
  await expectAllPassed(page, "webgpu", 33, 90_000);
  expect(problems).toEqual([]);
});

test("the public cases pass on wasm, and a bad file after them leaves their results in place", async ({ page }) => {
  const problems = await openConformance(page, "backend=wasm");
  await loadCaseFile(page, "public_cases.json", publicCases);
  await expectAllPassed(page, "wasm", 33, 60_000);

  const bad = JSON.parse(publicCases);
  bad.cases[2].params.chunk_size = "128";
  await loadCaseFile(page, "bad.json", JSON.stringify(bad));
  const error = page.getByTestId("error-message");
  await expect(error).toContainText("bad.json: not a valid case file");
  await expect(error).toContainText(`cases[2] ("${bad.cases[2].name}").params.chunk_size`);
  await expect(page.getByTestId("conformance-summary")).toHaveText("33 passed, 0 failed");
  expect(problems).toEqual([]);
});

test("a malformed file shows the field at fault", async ({ page }) => {
  const problems = await openConformance(page, "backend=cpu");
  const file = { meta: { schema_version: 1 }, cases: [{ ...JSON.parse(publicCases).cases[0], shape: [1, -3] }] };
  await loadCaseFile(page, "broken.json", JSON.stringify(file));
  await expect(page.getByTestId("error-message")).toContainText(`cases[0] ("${file.cases[0].name}").shape[1]`);
  await expect(page.getByTestId("conformance-summary")).toHaveCount(0);
  await loadCaseFile(page, "not-json.json", "{ cases: [");
  await expect(page.getByTestId("error-message")).toContainText("not-json.json: not valid JSON");
  expect(problems).toEqual([]);
});

test("a generated long-sequence file passes on webgpu", async ({ page }) => {
  const problems = await openConformance(page, "backend=webgpu");
  await loadCaseFile(page, "generated.json", JSON.stringify(generatedCaseFile()));
  await expectAllPassed(page, "webgpu", 2, 90_000);
  expect(problems).toEqual([]);
});

test("an unknown backend in the address is reported, not fatal", async ({ page }) => {
  const problems = await openConformance(page, "backend=cuda&strategy=two-level");
  await expect(page.getByTestId("url-notice")).toContainText('Ignored backend="cuda"');
  await expect(page.getByTestId("strategy-select")).toHaveValue("two-level");
  expect(problems).toEqual([]);
});

test("a lost WebGPU device and a crashed worker each restart the engine one backend down", async ({ page }) => {
  const problems = await openConformance(page, "backend=webgpu&debug");
  await loadCaseFile(page, "public_cases.json", publicCases);
  await expectAllPassed(page, "webgpu", 33, 90_000);

  await page.getByTestId("simulate-device-lost").click();
  const notice = page.getByTestId("backend-notice");
  await expect(notice).toContainText("The engine worker on webgpu stopped (the WebGPU device was lost");
  await expect(notice).toContainText("restarting it on webgl");
  await expect(page.getByTestId("backend")).toHaveText("webgl");
  await page.getByRole("button", { name: "Run again" }).click();
  await expect(page.getByTestId("conformance-summary")).toHaveText("33 passed, 0 failed", { timeout: 60_000 });
  await expect(page.getByTestId("backend")).toHaveText("webgl");

  // A crash in the middle of a run: the run's promise rejects at once, with the reason.
  await page.getByRole("button", { name: "Run again" }).click();
  await expect(page.getByTestId("conformance-progress")).toBeVisible();
  await page.getByTestId("simulate-crash").click();
  await expect(page.getByTestId("error-message")).toContainText(
    "The run stopped: The engine worker on webgl stopped (Uncaught Error: simulated worker crash); restarting it on wasm.",
  );
  await expect(notice).toContainText("restarting it on wasm");
  await expect(page.getByTestId("backend")).toHaveText("wasm");
  await page.getByRole("button", { name: "Run again" }).click();
  await expect(page.getByTestId("conformance-summary")).toHaveText("33 passed, 0 failed", { timeout: 60_000 });
  await expect(page.getByTestId("backend")).toHaveText("wasm");
  await expect(page.getByTestId("error-message")).toHaveCount(0);
  expect(problems).toEqual([]);
});

/** The same browser without `--enable-unsafe-webgpu`: headless Chromium on Linux then has no WebGPU adapter. */
const withoutWebGPU = test.extend({
  launchOptions: [
    async ({ launchOptions }, use) => {
      await use({ ...launchOptions, args: launchOptions.args?.filter((arg) => arg !== "--enable-unsafe-webgpu") });
    },
    { scope: "worker" },
  ],
});

withoutWebGPU("asking for webgpu where there is none falls back to webgl with a notice", async ({ page }) => {
  const problems = await openConformance(page, "backend=webgpu");
  const hasAdapter = await page.evaluate(async () => Boolean(await navigator.gpu?.requestAdapter()));
  test.skip(hasAdapter, "this browser has WebGPU even without --enable-unsafe-webgpu");
  await expect(page.getByTestId("backend-notice")).toContainText(
    "webgpu is not available here, so the engine runs on webgl (webgpu: navigator.gpu.requestAdapter() returned no adapter",
  );
  await expect(page.getByTestId("backend")).toHaveText("webgl");
  expect(problems).toEqual([]);
});

/** A seeded generator of float32-representable numbers (mulberry32). */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Two cases past the public grid: a long discounted batch (B=2, T=8192, γ=0.999, C=128) and a
 * ragged REINFORCE++ batch (16 sequences up to 2000 tokens, masks with holes). `expected` is
 * core's float64 serial truth, `chunked_float32` core's float32 chunked scan; no `tolerance`,
 * so the uniform rule applies.
 */
function generatedCaseFile() {
  const random = seeded(20260613);
  const uniform = (lo: number, hi: number) => Math.fround(lo + (hi - lo) * random());
  const list = (a: ArrayLike<number>) => Array.from(a);

  const [B, T, discount, chunkSize] = [2, 8192, 0.999, 128];
  const rewards = Float64Array.from({ length: B * T }, () => uniform(-1, 1));
  const truth = serialDiscountedReturns({ rows: B, cols: T, data: rewards }, discount).data;
  const f32 = chunkedDiscountedReturns({ rows: B, cols: T, data: Float32Array.from(rewards) }, discount, {
    chunkSize,
  }).returns.data;
  const discounted = {
    name: "generated_discounted_B2_T8192_g0.999",
    kind: "discounted",
    note: "generated by e2e/conformance.spec.ts",
    seed: 20260613,
    max_abs_err_float32: maxAbsError(f32, truth),
    shape: [B, T],
    params: { discount, chunk_size: chunkSize },
    inputs: { rewards: list(rewards) },
    expected: { returns: list(truth) },
    chunked_float32: { returns: list(f32) },
  };

  const lengths = Array.from({ length: 16 }, (_, i) => (i === 0 ? 2000 : 1 + Math.floor(random() * 2000)));
  const kl = lengths.map((L) => Float64Array.from({ length: L }, () => uniform(0, 0.2)));
  const masks = lengths.map((L) => {
    const mask = Array.from({ length: L }, () => 1);
    for (let hole = 0; hole < 3 && L > 8; hole++) {
      const start = Math.floor(random() * L);
      const end = Math.min(L, start + 1 + Math.floor(random() * (L / 8)));
      for (let t = start; t < end; t++) mask[t] = 0;
    }
    mask[Math.floor(random() * L)] = 1; // at least one token is trained on
    return mask;
  });
  const outcomes = lengths.map(() => uniform(-1, 1));
  const [klCoef, gamma] = [0.05, 0.99];
  const serial = serialReinforcePPReturns({ rewards: outcomes, kl, lossMasks: masks }, klCoef, gamma);
  const chunked = reinforcePPReturns(
    { rewards: outcomes, kl: kl.map((row) => Float32Array.from(row)), lossMasks: masks },
    klCoef,
    gamma,
    { chunkSize: 128 },
  );
  const reinforcePP = {
    name: "generated_reinforce_pp_B16_ragged_holes",
    kind: "reinforce_pp",
    note: "generated by e2e/conformance.spec.ts",
    seed: 20260613,
    max_abs_err_float32: Math.max(...chunked.returns.map((row, i) => maxAbsError(row, serial.returns[i]))),
    lengths,
    params: { kl_coef: klCoef, gamma, chunk_size: 128 },
    inputs: { rewards: outcomes, kl: kl.map(list), loss_masks: masks },
    expected: { returns: serial.returns.map(list), token_level_rewards: serial.tokenLevelRewards.map(list) },
    chunked_float32: { returns: chunked.returns.map(list), token_level_rewards: chunked.tokenLevelRewards.map(list) },
  };

  return {
    meta: { title: "generated by e2e/conformance.spec.ts", schema_version: 1 },
    cases: [discounted, reinforcePP],
  };
}
