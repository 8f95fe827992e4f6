import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { basename } from "node:path";
import type { Page } from "@playwright/test";
import { loadCaseFile, openConformance } from "./conformance-page";
import { expect, test } from "./pageProblems";
import { exportFile } from "./playgroundPage";

/**
 * The library conventions in the playground: the switch, the compare mode (overlay, difference
 * heatmap, sentences) on the default multi-turn batch (4 ragged rows with masked tool outputs), and
 * the convention case export checked by `scanlab check` and the conformance view.
 */

const SHOTS = process.env.SCANLAB_SHOTS; // a folder: save screenshots there to look at them

async function shot(page: Page, name: string) {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

/** Waits for a finished conventions run newer than `after`, and returns its run count. */
async function conventionsSettled(page: Page, after = 0): Promise<number> {
  const panel = page.getByTestId("conventions");
  await expect
    .poll(async () => Number(await panel.getAttribute("data-run")), { timeout: 60_000 })
    .toBeGreaterThan(after);
  await expect(panel).toHaveAttribute("aria-busy", "false", { timeout: 60_000 });
  return Number(await panel.getAttribute("data-run"));
}

/** The path of a line of the conventions chart once its deferred render has caught up. */
async function linePath(page: Page, index: number): Promise<string | null> {
  const line = page.getByTestId("convention-chart").locator("path.plot-line").nth(index);
  await expect(line).toBeVisible();
  let previous = await line.getAttribute("d");
  for (let i = 0; i < 40; i++) {
    await page.waitForTimeout(200);
    const current = await line.getAttribute("d");
    if (current === previous) return current;
    previous = current;
  }
  return previous;
}

const libraryRadio = (page: Page, name: string) =>
  page.getByRole("group", { name: "Library" }).getByRole("radio", { name, exact: true });

/** Picks a library with the keyboard-reachable radio's label (the radio itself is drawn as a button). */
const pickLibrary = (page: Page, name: string) =>
  page
    .getByRole("group", { name: "Library" })
    .locator("label")
    .filter({ hasText: new RegExp(`^${name}$`) })
    .click();

test("the library switch changes the results, each checked in float32 against its bound", async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 1000 });
  await page.goto("/?backend=wasm");
  let run = await conventionsSettled(page);
  await expect(page.getByTestId("convention-check")).toHaveText(
    /^slime in float32 \((webgpu|webgl|wasm|cpu), chunked\) against float64/,
  );
  await expect(page.getByTestId("convention-check")).toContainText("every one within its own error bound");
  const slime = await linePath(page, 0);
  const slimeCheck = await page.getByTestId("convention-check").textContent();

  await pickLibrary(page, "verl");
  await expect(libraryRadio(page, "verl")).toBeChecked();
  run = await conventionsSettled(page, run);
  await expect(page.getByTestId("convention-check")).toHaveText(
    /^verl in float32 \((webgpu|webgl|wasm|cpu), chunked\) against float64/,
  );
  await expect(page.getByTestId("convention-check")).toContainText("every one within its own error bound");
  const verl = await linePath(page, 0);
  // verl cuts the return at every masked tool output: its returns are another line.
  expect(verl).not.toBe(slime);
  await shot(page, "conv-single-1440");

  // Undo takes the switch back, and the link carries it.
  await page.getByTestId("undo").click();
  await conventionsSettled(page, run);
  await expect(libraryRadio(page, "slime")).toBeChecked();
  // The same inputs give the same figures again.
  await expect(page.getByTestId("convention-check")).toHaveText(slimeCheck ?? "");
  expect(await linePath(page, 0)).not.toBe(verl);
});

test("compare mode: the overlay, the difference heatmap and the sentences on a ragged batch with holes", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 1100 });
  await page.goto("/?backend=wasm&library=slime&compare=verl,openrlhf");
  await conventionsSettled(page);
  const chart = page.getByTestId("convention-chart");
  await expect(chart.locator("path.plot-line")).toHaveCount(3);
  for (const label of ["slime float64", "OpenRLHF float64", "verl float64"]) {
    await expect(chart.locator(".chart-legend")).toContainText(label);
  }
  const sentences = page.getByTestId("convention-differences");
  const carry = sentences.locator('li[data-rule="carry"][data-pair="slime-verl"]');
  await expect(carry).toHaveText(
    /^verl cuts the return at the masked tokens \d+–\d+(, \d+–\d+)*( and \d+–\d+)? of row 0.*; slime carries it through, so the tokens before a hole differ by up to [\d.e+-]+ in their returns\.$/,
  );
  await expect(sentences.locator('li[data-rule="re-mask"][data-pair="slime-verl"]')).toContainText(
    "verl sets the advantages of the masked tokens",
  );
  await expect(sentences.locator('li[data-rule="kl-stored"][data-pair="slime-openrlhf"]')).toContainText(
    "OpenRLHF keeps the KL penalty",
  );
  await expect(sentences.locator('li[data-rule="largest"]')).toHaveCount(2);
  // The sentences point at the selected row first.
  await page.getByTestId("row-select").selectOption("1");
  await expect(carry).toContainText(/masked tokens [\d–, and]+ of row 1/);
  await page.getByTestId("row-select").selectOption("0");
  await expect(carry).toContainText(/ of row 0/);

  // The heatmap of |verl − slime|: hovering a cell reads both libraries' values.
  const heatmap = page.getByTestId("convention-heatmap");
  await expect(heatmap.getByRole("heading")).toHaveText(/\|verl − slime\|/);
  await heatmap
    .locator("label")
    .filter({ hasText: /^OpenRLHF$/ })
    .click();
  await expect(heatmap.getByRole("heading")).toHaveText(/\|OpenRLHF − slime\|/);
  await heatmap
    .locator("label")
    .filter({ hasText: /^verl$/ })
    .click();
  await expect(heatmap.getByRole("heading")).toHaveText(/\|verl − slime\|/);
  const canvas = heatmap.locator("canvas.error-heatmap-overlay");
  // Two libraries, neither of them the truth: a difference, not an error of a chunked scan.
  await expect(canvas).toHaveAttribute("aria-label", /^Difference heatmap, /);
  await expect(heatmap.locator(".heatmap-legend")).not.toContainText(/chunked|serial|scans/);
  await canvas.focus();
  await expect(page.getByTestId("convention-readout")).toHaveText(
    /^row 0 · t 0 · slime -?[\d.e+-]+ · verl -?[\d.e+-]+ · \|Δ\| [\d.e+-]+/,
  );
  await shot(page, "conv-compare-1440");

  // GAE: slime charges the KL penalty on masked tokens; each library treats them its own way.
  await page.getByTestId("estimator-select").selectOption("gae");
  await expect(sentences.locator('li[data-rule="kl-masked"][data-pair="slime-verl"]')).toContainText(
    "slime charges the KL penalty on the masked tokens",
    { timeout: 60_000 },
  );
  await expect(sentences.locator('li[data-rule="gae-masked"][data-pair="slime-verl"]')).toContainText(
    "verl skips them",
  );
  await shot(page, "conv-compare-gae-1440");

  // Small window: everything still in one column, labelled.
  await page.setViewportSize({ width: 900, height: 1000 });
  await page.waitForTimeout(500);
  await shot(page, "conv-compare-900");
});

test("a convention case export passes scanlab check and the conformance view", async ({ page }, testInfo) => {
  await page.goto("/?backend=wasm&library=verl&compare=slime&normalize=1");
  await conventionsSettled(page);
  const path = await exportFile(page, "export-convention-case", testInfo);
  const text = readFileSync(path, "utf8");
  const file = JSON.parse(text);
  expect(file.cases[0]).toMatchObject({ kind: "convention", library: "verl", estimator: "reinforce_pp" });
  expect(file.cases[0].params.normalize).toBe(true);
  const report = execFileSync("node", ["--no-concurrent-recompilation", "bin/scanlab.mjs", "check", path], {
    encoding: "utf8",
  });
  expect(report).toMatch(/1 passed, 0 failed/);

  const conformanceProblems = await openConformance(page, "backend=wasm");
  await loadCaseFile(page, basename(path), text);
  await expect(page.getByTestId("conformance-summary")).toContainText("1 passed", { timeout: 90_000 });
  expect(conformanceProblems).toEqual([]);
});
