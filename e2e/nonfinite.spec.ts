import type { Page } from "@playwright/test";
import { exampleById } from "../src/io/presets";
import { encodeState } from "../src/io/shareLink";
import { expect, test } from "./pageProblems";
import { afterRun, runCount, settled } from "./playgroundPage";

/** The first-visit page, switched to plain discounted returns. */
async function openDiscounted(page: Page): Promise<void> {
  await page.goto("/?backend=wasm");
  await settled(page);
  await afterRun(page, () => page.getByTestId("estimator-select").selectOption("discounted"));
}

/** A CSV file as the file input takes it. */
const csvFile = (name: string, text: string) => ({ name, mimeType: "text/csv", buffer: Buffer.from(text) });

/** What a run on NaN inputs must show: the lesson, the counted cells, both marks in the legend. */
async function expectLesson(page: Page, lesson: RegExp, cells: string) {
  await expect(page.getByTestId("non-finite-lesson")).toHaveText(lesson);
  // Cells only the chunked scan lost (the serial reference is finite there) are over their bound;
  // those the reference lost too are left out.
  const [, chunked, serial] = /chunked ([\d,]+), serial ([\d,]+)/.exec(cells) ?? [];
  const only = Number(chunked.replaceAll(",", "")) - Number(serial.replaceAll(",", ""));
  await expect(page.getByTestId("non-finite-cells")).toHaveText(
    `NaN / ∞ cells: ${cells} · ${only.toLocaleString("en-US")} where only the chunked side is: in the figures, over their bound · ${serial} where the serial reference is: left out of the figures (lost)`,
  );
  await expect(page.getByTestId("max-abs-error")).toHaveText("Infinity");
  await expect(page.getByTestId("cells-over-bound")).toHaveText(new RegExp(`^▲ ${only} / `));
  const keys = page.locator(".heatmap-keys");
  await expect(keys).toContainText("NaN / ∞ in both scans (dashed)");
  await expect(keys).toContainText("NaN / ∞ in the chunked scan only (crossed)");
}

test("NaN typed into a bar is named by row and token, run, and explained", async ({ page }) => {
  await openDiscounted(page);
  await afterRun(page, async () => {
    const editor = page.getByTestId("row-editor");
    await editor.focus();
    await editor.press("Home");
    for (let t = 0; t < 5; t++) await editor.press("ArrowRight");
    await editor.press("Enter");
    await page.getByTestId("exact-value-input").fill("NaN");
    await page.getByTestId("exact-value-input").press("Enter");
  });
  await expect(page.getByTestId("non-finite-note")).toContainText("rewards: NaN at row 0, token 5");
  // 300 padded tokens, C 128: token 5 lies in the reversed chunk of original tokens 0–43.
  await expectLesson(
    page,
    /^Row 0: The chunked scan poisons tokens 0–43: .* tokens 0–5 only, so 38 tokens after it differ\.$/,
    "chunked 44, serial 6",
  );
  await page.screenshot({ path: "/tmp/nonfinite-typed.png", fullPage: true });
});

test("a CSV with inf is read, named and run; a bad file then leaves that result on screen", async ({ page }) => {
  await openDiscounted(page);
  const row = (bad: number) => Array.from({ length: 200 }, (_, t) => (t === bad ? "inf" : "0.5")).join(",");
  const csv = `${row(-1)}\n${row(150)}\n`;
  await afterRun(page, () => page.getByTestId("case-file-input").setInputFiles(csvFile("r.csv", csv)));
  await expect(page.getByTestId("non-finite-note")).toContainText("rewards: Infinity at row 1, token 150");
  // 200 tokens, C 128: token 150 lies in the reversed chunk of original tokens 72–199.
  await expectLesson(
    page,
    /^Row 1: The chunked scan poisons tokens 0–199: .* tokens 0–150 only, so 49 tokens after it differ\.$/,
    "chunked 200, serial 151",
  );
  const runs = await runCount(page);
  const lesson = await page.getByTestId("non-finite-lesson").textContent();
  await page.getByTestId("case-file-input").setInputFiles(csvFile("bad.csv", "1,2\n3,x\n"));
  await expect(page.getByTestId("error-message")).toContainText('bad.csv: line 2, column 2: "x" is not a number');
  expect(await runCount(page)).toBe(runs);
  await expect(page.getByTestId("non-finite-lesson")).toHaveText(lesson ?? "");
  await expect(page.getByTestId("non-finite-note")).toContainText("row 1, token 150");
});

test("the built-in NaN example opens from a link, then a 16 × 8192 CSV with a NaN runs too", async ({ page }) => {
  const example = exampleById("nan-one-token");
  if (!example) throw new Error("no NaN example");
  await page.goto(`/?backend=wasm&s=${encodeState(example.state)}`);
  await settled(page);
  await expectLesson(
    page,
    /^Row 1: The chunked scan poisons tokens 0–171: .* tokens 0–140 only, so 31 tokens after it differ\.$/,
    "chunked 172, serial 141",
  );
  await page.setViewportSize({ width: 760, height: 900 });
  await page.screenshot({ path: "/tmp/nonfinite-small.png", fullPage: true });

  // 16 × 8192 (a link this long is beyond the server's header limit: a CSV carries it).
  const line = (b: number) =>
    Array.from({ length: 8192 }, (_, t) => (b === 3 && t === 4000 ? "nan" : Math.sin(b + t / 50).toFixed(4))).join(",");
  const csv = Array.from({ length: 16 }, (_, b) => line(b)).join("\n");
  await page.setViewportSize({ width: 1400, height: 1000 });
  await afterRun(page, () => page.getByTestId("case-file-input").setInputFiles(csvFile("big.csv", csv)));
  await expect(page.getByTestId("non-finite-note")).toContainText("rewards: NaN at row 3, token 4000");
  // The example's C 64 stays: token 4000 lies in the reversed chunk of original tokens 3968–4031.
  await expectLesson(
    page,
    /^Row 3: The chunked scan poisons tokens 0–4031: .* tokens 0–4000 only, so 31 tokens after it differ\.$/,
    "chunked 4,032, serial 4,001",
  );
  await page.screenshot({ path: "/tmp/nonfinite-large.png", fullPage: true });
});

test("GAE with a NaN value: the lesson, lost cells named in the readouts, each library run on it", async ({ page }) => {
  const example = exampleById("nan-one-token");
  if (example?.state.data.source !== "inline") throw new Error("no NaN example");
  // The example's rows, the NaN moved from the rewards into the values (GAE and every library read
  // those), and a hole of masked tokens 200–219 in row 1 (verl's GAE skips it).
  const rows = example.state.data.rows.map((row, b) => ({
    ...row,
    rewards: row.rewards?.map((x) => (Number.isFinite(x) ? x : 0.015625)),
    values: Array.from({ length: row.length }, (_, t) => (b === 1 && t === 140 ? Number.NaN : 0.5)),
    lossMask: Array.from({ length: row.length }, (_, t): 0 | 1 => (b === 1 && t >= 200 && t < 220 ? 0 : 1)),
  }));
  const state = {
    ...example.state,
    estimator: "gae" as const,
    data: { source: "inline" as const, rows },
    convention: { library: "verl" as const, compare: ["slime" as const], normalize: false, rewardClip: null },
  };
  await page.setViewportSize({ width: 1400, height: 1000 });
  await page.goto(`/?backend=wasm&s=${encodeState(state)}`);
  await settled(page);
  await expect(page.getByTestId("non-finite-note")).toContainText("values: NaN at row 1, token 140");
  // δ_139 and δ_140 read V_140: token 140's chunk of 64 (original tokens 108–171) is lost.
  await expect(page.getByTestId("non-finite-lesson")).toHaveText(/^Row 1: The chunked scan poisons tokens 0–171: /);
  // The heatmap's readout says who lost a cell, with no NaN error, bound or ▲.
  const results = page.getByTestId("results");
  await results.locator("canvas.error-heatmap-overlay").focus();
  await expect(results.locator(".error-heatmap-readout")).toHaveText(
    /^row 1 · t 0 · chunk \d+ · not measured: both scans are NaN here$/,
  );

  // The conventions: verl on the engine in float32 and slime, both run on the NaN, nothing refused.
  const panel = page.getByTestId("conventions");
  await expect.poll(async () => Number(await panel.getAttribute("data-run")), { timeout: 60_000 }).toBeGreaterThan(0);
  await expect(panel).toHaveAttribute("aria-busy", "false", { timeout: 60_000 });
  await expect(page.getByTestId("convention-refused")).toHaveCount(0);
  const check = page.getByTestId("convention-check");
  await expect(check).toHaveText(
    /^verl in float32 \(wasm, chunked\) against float64: max \|float32 − float64\| \S+ over [\d,]+ values where both are finite, every one within its own error bound \(worst: \S+ of it\)\. NaN \/ ∞ elements, left out: [\d,]+ \(float64 [\d,]+, float32 [\d,]+, both [\d,]+\)\.$/,
  );
  const lost = page.locator('[data-testid="convention-differences"] li[data-rule="non-finite"]');
  await expect(lost).toHaveText(/^NaN \/ ∞ in the inputs: verl loses [\d,]+ values, slime [\d,]+ \([\d,]+ in both\)/);
  for (const text of await page.getByTestId("convention-differences").locator("li").allTextContents()) {
    expect(text.replaceAll("NaN / ∞", "")).not.toMatch(/NaN|Infinity/);
  }
  await page.getByTestId("convention-heatmap").locator("canvas.error-heatmap-overlay").focus();
  await expect(page.getByTestId("convention-readout")).toHaveText(
    "row 1 · t 0 · not measured: verl and slime are NaN here",
  );
  await page.screenshot({ path: "/tmp/nonfinite-conventions.png", fullPage: true });
});
