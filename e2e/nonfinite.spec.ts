import { expect, type Page, test } from "@playwright/test";
import { exampleById } from "../src/io/presets";
import { encodeState } from "../src/io/shareLink";
import { collectProblems } from "./pageProblems";

/** How many whole-batch results the page has shown (`data-run`). */
async function runCount(page: Page): Promise<number> {
  return Number(await page.getByTestId("results").getAttribute("data-run"));
}

/** Does `edit`, then waits until a result computed after it is on screen. */
async function afterEdit(page: Page, edit: () => Promise<void>): Promise<void> {
  const before = await runCount(page);
  await edit();
  await expect.poll(() => runCount(page), { timeout: 60_000 }).toBeGreaterThan(before);
  await expect(page.getByTestId("results")).toHaveAttribute("aria-busy", "false", { timeout: 60_000 });
}

async function settled(page: Page): Promise<void> {
  await expect.poll(() => runCount(page), { timeout: 60_000 }).toBeGreaterThan(0);
  await expect(page.getByTestId("results")).toHaveAttribute("aria-busy", "false", { timeout: 60_000 });
}

/** What a run on NaN inputs must show: the lesson, the counted cells, both marks in the legend. */
async function expectLesson(page: Page, lesson: RegExp, cells: string) {
  await expect(page.getByTestId("non-finite-lesson")).toHaveText(lesson);
  await expect(page.getByTestId("non-finite-cells")).toHaveText(`NaN / ∞ cells, left out of the figures: ${cells}`);
  await expect(page.getByTestId("max-abs-error")).not.toHaveText(/NaN/);
  const keys = page.locator(".heatmap-keys");
  await expect(keys).toContainText("NaN / ∞ in both scans (dashed)");
  await expect(keys).toContainText("NaN / ∞ in the chunked scan only (crossed)");
}

test("NaN typed into a bar is named by row and token, run, and explained", async ({ page }) => {
  const problems = collectProblems(page);
  await page.goto("/?backend=wasm");
  await settled(page);
  await afterEdit(page, () =>
    page
      .getByTestId("estimator-select")
      .selectOption("discounted")
      .then(() => {}),
  );
  await afterEdit(page, async () => {
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
  expect(problems).toEqual([]);
});

test("a CSV with inf is read, named and run; a bad file then leaves that result on screen", async ({ page }) => {
  const problems = collectProblems(page);
  await page.goto("/?backend=wasm");
  await settled(page);
  await afterEdit(page, () =>
    page
      .getByTestId("estimator-select")
      .selectOption("discounted")
      .then(() => {}),
  );
  const row = (bad: number) => Array.from({ length: 200 }, (_, t) => (t === bad ? "inf" : "0.5")).join(",");
  const csv = `${row(-1)}\n${row(150)}\n`;
  await afterEdit(page, () =>
    page
      .getByTestId("case-file-input")
      .setInputFiles({ name: "r.csv", mimeType: "text/csv", buffer: Buffer.from(csv) }),
  );
  await expect(page.getByTestId("non-finite-note")).toContainText("rewards: Infinity at row 1, token 150");
  // 200 tokens, C 128: token 150 lies in the reversed chunk of original tokens 72–199.
  await expectLesson(
    page,
    /^Row 1: The chunked scan poisons tokens 0–199: .* tokens 0–150 only, so 49 tokens after it differ\.$/,
    "chunked 200, serial 151",
  );
  const runs = await runCount(page);
  const lesson = await page.getByTestId("non-finite-lesson").textContent();
  await page
    .getByTestId("case-file-input")
    .setInputFiles({ name: "bad.csv", mimeType: "text/csv", buffer: Buffer.from("1,2\n3,x\n") });
  await expect(page.getByTestId("error-message")).toContainText('bad.csv: row 2, column 2: "x" is not a number');
  expect(await runCount(page)).toBe(runs);
  await expect(page.getByTestId("non-finite-lesson")).toHaveText(lesson ?? "");
  await expect(page.getByTestId("non-finite-note")).toContainText("row 1, token 150");
  expect(problems).toEqual([]);
});

test("the built-in NaN example opens from a link, then a 16 × 8192 CSV with a NaN runs too", async ({ page }) => {
  const problems = collectProblems(page);
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
  await afterEdit(page, () =>
    page
      .getByTestId("case-file-input")
      .setInputFiles({ name: "big.csv", mimeType: "text/csv", buffer: Buffer.from(csv) }),
  );
  await expect(page.getByTestId("non-finite-note")).toContainText("rewards: NaN at row 3, token 4000");
  // The example's C 64 stays: token 4000 lies in the reversed chunk of original tokens 3968–4031.
  await expectLesson(
    page,
    /^Row 3: The chunked scan poisons tokens 0–4031: .* tokens 0–4000 only, so 31 tokens after it differ\.$/,
    "chunked 4,032, serial 4,001",
  );
  await page.screenshot({ path: "/tmp/nonfinite-large.png", fullPage: true });
  expect(problems).toEqual([]);
});

test("GAE on the NaN example: the lesson follows the TD residuals and nothing breaks", async ({ page }) => {
  const problems = collectProblems(page);
  const example = exampleById("nan-one-token");
  if (!example) throw new Error("no NaN example");
  await page.goto(`/?backend=wasm&s=${encodeState({ ...example.state, estimator: "gae" })}`);
  await settled(page);
  await expect(page.getByTestId("non-finite-note")).toContainText("rewards: NaN at row 1, token 140");
  await expect(page.getByTestId("non-finite-lesson")).toHaveText(/^Row 1: The chunked scan poisons tokens 0–171: /);
  await page.waitForTimeout(1500);
  await page.screenshot({ path: "/tmp/nonfinite-gae.png", fullPage: true });
  expect(problems).toEqual([]);
});
