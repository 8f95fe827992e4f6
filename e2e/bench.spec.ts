import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import type { BenchReport } from "../src/compute/bench/benchClient";
import type { BenchPlan } from "../src/compute/bench/benchPlan";
import { expect, test } from "./pageProblems";

/** A plan small enough for a test: every strategy on wasm and webgpu at 2×128. No time is asserted. */
const PLAN: BenchPlan = {
  backends: ["wasm", "webgpu"],
  strategies: ["per-token", "chunked", "two-level", "fused", "js-loop"],
  sizes: [{ rows: 2, cols: 128 }],
  reps: 5,
  chunkSize: 64,
  discount: 0.99,
  seed: 3,
  skipOverMs: 60_000,
};

async function openPanel(page: Page): Promise<void> {
  await page.goto("/?view=bench");
  await expect(page.getByRole("heading", { name: "Benchmark" })).toBeVisible();
  await page.waitForFunction(() => window.scanlabBench !== undefined);
}

function runPlan(page: Page, plan: BenchPlan): Promise<BenchReport> {
  return page.evaluate((p) => {
    if (!window.scanlabBench) throw new Error("no bench hook");
    return window.scanlabBench.run(p);
  }, plan);
}

test("the panel measures every strategy through its hook, checks every run and counts tensors", async ({ page }) => {
  await openPanel(page);
  await expect(page.getByRole("link", { name: "Benchmark" })).toHaveAttribute("aria-current", "page");
  await expect(page.getByTestId("bench-adapter")).toContainText(/swiftshader|no WebGPU/i);

  const report = await runPlan(page, PLAN);
  expect(report.cancelled).toBe(false);
  const rows = report.rows.map((r) => `${r.backend} ${r.strategy} ${r.status}`);
  expect(rows).toEqual([
    "js js-loop ok",
    "wasm per-token ok",
    "wasm chunked ok",
    "wasm two-level ok",
    "webgpu per-token ok",
    "webgpu chunked ok",
    "webgpu two-level ok",
    "webgpu fused ok",
  ]);
  for (const r of report.rows) {
    // Warm-up, probe and the five samples (each of `loops` runs), every one checked against its bound.
    expect(r.checkedRuns).toBe(2 + 5 * r.loops);
    expect(r.timesMs).toHaveLength(5);
    expect(r.worstBoundFraction).toBeLessThanOrEqual(1);
    if (r.backend !== "js") expect(r.tensorsAfter).toBe(r.tensorsBefore);
  }

  await expect(page.getByTestId("bench-progress")).toHaveAttribute("value", "100");
  await expect(page.getByTestId("bench-results")).toHaveAttribute("aria-busy", "false");
  await expect(page.getByTestId("bench-table").locator("tbody tr[data-status]")).toHaveCount(8);
  await expect(page.getByTestId("bench-table").locator('tr[data-status="ok"]')).toHaveCount(8);
  // One time chart per backend, each with its strategies and the JS loop drawn.
  const charts = page.getByTestId("bench-time-charts").locator("figure");
  await expect(charts).toHaveCount(2);
  await expect(charts.nth(1).locator(".recharts-line")).toHaveCount(5);
});

test("the chunk-size sweep marks the best C of each strategy", async ({ page }) => {
  await openPanel(page);
  const plan = {
    ...PLAN,
    backends: ["wasm" as const],
    strategies: ["chunked" as const, "two-level" as const],
    sizes: [],
    sweep: { size: { rows: 2, cols: 256 }, chunkSizes: [8, 32, 128] },
  };
  const report = await runPlan(page, plan);
  expect(report.rows.map((r) => `${r.strategy} ${r.chunkSize} ${r.status}`)).toEqual([
    "chunked 8 ok",
    "chunked 32 ok",
    "chunked 128 ok",
    "two-level 8 ok",
    "two-level 32 ok",
    "two-level 128 ok",
  ]);
  await expect(page.getByTestId("bench-best-chunk")).toHaveCount(2);
  await expect(page.getByTestId("bench-sweep-charts").locator(".recharts-reference-dot")).toHaveCount(4);
});

test("the controls run and cancel from the keyboard, every control labelled", async ({ page }) => {
  await openPanel(page);
  const run = page.getByTestId("bench-run");
  // No backend and no strategy: the run is refused with the reason, nothing is lost.
  for (const name of ["webgpu", "webgl", "wasm", "cpu"])
    await page.getByRole("checkbox", { name, exact: true }).uncheck();
  await expect(page.getByTestId("bench-problems")).toHaveText("Choose at least one backend.");
  await expect(run).toBeDisabled();
  await page.getByRole("checkbox", { name: "wasm", exact: true }).focus();
  await page.keyboard.press("Space");
  await expect(run).toBeEnabled();

  await run.focus();
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("bench-results")).toHaveAttribute("aria-busy", "true");
  await expect(page.getByTestId("bench-table").locator("tbody tr[data-status]").first()).toBeVisible();
  await page.getByTestId("bench-cancel").focus();
  await page.keyboard.press("Enter");
  await expect(page.getByText(/^Stopped after \d+ of \d+ rows \(cancelled\)\.$/)).toBeVisible();
  await expect(page.getByTestId("bench-results")).toHaveAttribute("aria-busy", "false");
  await expect(run).toBeEnabled();

  const audit = await new AxeBuilder({ page }).include(".bench-view").analyze();
  expect(audit.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(", ")}`)).toEqual([]);
});

test("a bad address value is reported on the panel, and the address follows the panel", async ({ page }) => {
  await page.goto("/?view=bench&backend=cuda&chunk=7");
  await expect(page.getByTestId("url-notice")).toContainText("Address: backend=cuda: expected one of");
  await expect(page.getByTestId("url-notice")).toContainText("Address: chunk=7: expected one of");
  await page.getByLabel("Chunk size C").selectOption("64");
  await page.getByRole("checkbox", { name: /^64×32768/ }).check();
  await expect(page).toHaveURL(/\?view=bench&backend=cuda&sizes=1x1024%2C8x4096%2C64x32768&chunk=64$/);
  // The link reopens the panel as it was left.
  await page.reload();
  await expect(page.getByLabel("Chunk size C")).toHaveValue("64");
  await expect(page.getByRole("checkbox", { name: /^64×32768/ })).toBeChecked();
  await expect(page.getByTestId("url-notice")).not.toContainText("chunk");
});
