import { readFileSync } from "node:fs";
import type { Page } from "@playwright/test";
import { expect, test } from "./pageProblems";
import { generatedDump, openPpoDump, openRunDump, openRunFile, sharedDump } from "./runPage";

/**
 * The run view's finish: the chart follows the selected sample (by its index in the dump) through
 * re-sorts; a sample opened in the playground keeps its dump's context and stored values; plain files
 * and rollout dumps say what they are; the failing or selected samples exported as a case file and a
 * pytest file; the heatmap's KL choice.
 */

/** The y axis labels of the run view's sample chart. */
async function valueTicks(page: Page): Promise<string[]> {
  return page
    .getByTestId("run-sample-chart")
    .locator('svg text[text-anchor="end"]')
    .evaluateAll((nodes) => nodes.map((n) => n.textContent ?? ""));
}

test("the sample chart follows the selected sample through a re-sort, and a flat series gets distinct ticks", async ({
  page,
}) => {
  // Written with --normalize-advantages; asked without it, so the worst-first order changes once it is ticked.
  await openPpoDump(page, false);
  await expect(page.getByTestId("run-results")).toHaveAttribute("aria-busy", "false", { timeout: 60_000 });
  const rows = page.getByTestId("run-samples").locator("tbody tr");
  const orderBefore = await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-sample")));
  // The sample in the middle of the table: a re-sort moves it.
  const chosen = orderBefore[4] ?? "0";
  await page.getByRole("button", { name: `Show sample ${chosen}`, exact: true }).click();
  await expect(page.getByTestId("run-sample-chart")).toHaveAttribute("data-sample", chosen);
  await expect(page.getByTestId("run-results")).toHaveAttribute("aria-busy", "false", { timeout: 60_000 });
  const lineBefore = await page
    .locator('[data-testid="run-sample-chart"] path[data-name="serial float64"]')
    .getAttribute("d");

  await page.getByTestId("run-normalize_advantages").check();
  await expect(page.getByTestId("run-summary")).toContainText("all 8 within their float32 bounds", { timeout: 60_000 });
  await expect(page.getByTestId("run-results")).toHaveAttribute("aria-busy", "false", { timeout: 60_000 });
  const orderAfter = await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-sample")));
  expect(orderAfter).not.toEqual(orderBefore);
  await expect(rows.locator(`xpath=self::*[@data-sample="${chosen}"]`)).toHaveAttribute("aria-selected", "true");
  await expect(page.getByTestId("run-sample-chart")).toHaveAttribute("data-sample", chosen);
  await expect(page.locator("#run-sample-title")).toHaveText(`Sample ${chosen}: advantages`);
  // The whitened advantages of the same sample: a new line, of the same number of tokens.
  const lineAfter = await page
    .locator('[data-testid="run-sample-chart"] path[data-name="serial float64"]')
    .getAttribute("d");
  expect(lineAfter).not.toEqual(lineBefore);

  // Sample 1 of the REINFORCE++ dump is one token long: a flat line, whose axis must not read "x" four times.
  await openRunDump(page);
  await page.getByRole("button", { name: "Show sample 1", exact: true }).click();
  await expect(page.getByTestId("run-sample-chart")).toHaveAttribute("data-sample", "1");
  await expect(page.getByTestId("run-results")).toHaveAttribute("aria-busy", "false", { timeout: 60_000 });
  const ticks = await valueTicks(page);
  expect(ticks.length).toBeGreaterThanOrEqual(3);
  expect(new Set(ticks).size).toBe(ticks.length);
});

test("a sample opened in the playground names its dump, draws the dump's stored returns, and keeps the banner until dismissed", async ({
  page,
}) => {
  await openRunDump(page);
  await page.getByRole("button", { name: "Show sample 0", exact: true }).click();
  await expect(page.getByTestId("run-sample-chart")).toHaveAttribute("data-sample", "0");
  await page.getByTestId("run-open-playground").click();
  await expect(page.getByTestId("results")).toHaveAttribute("aria-busy", "false", { timeout: 90_000 });
  const banner = page.getByTestId("dump-banner");
  await expect(banner).toContainText("train_rpp_g099_kl005.pt");
  await expect(banner).toContainText(/step \d+|step unknown/);
  await expect(banner).toContainText("sample 0, rollout_position 0");
  await expect(banner).toContainText("reinforce_plus_plus");
  await expect(page.getByTestId("dump-banner-normalization")).toHaveCount(0);
  // The dump's stored returns, a third line beside the reference and the chunked scan.
  const returnsChart = page.locator(".returns-chart").first();
  await expect(returnsChart.locator('path.plot-line[data-name="stored"]')).toHaveCount(1);
  await expect(returnsChart).toContainText("stored in the dump (slime's float32)");
  // It stays across a reload (the saved session), until dismissed.
  await page.reload();
  await expect(page.getByTestId("dump-banner")).toContainText("train_rpp_g099_kl005.pt", { timeout: 60_000 });
  await page.getByTestId("dump-banner-dismiss").click();
  await expect(page.getByTestId("dump-banner")).toHaveCount(0);
  await expect(page.locator('.returns-chart path.plot-line[data-name="stored"]')).toHaveCount(0);
  await page.waitForTimeout(1500); // the session is saved after a quiet moment
  await page.reload();
  await expect(page.getByTestId("results")).toHaveAttribute("aria-busy", "false", { timeout: 90_000 });
  await expect(page.getByTestId("dump-banner")).toHaveCount(0);

  // A dump whitened over its batch says so: the playground's advantages are this sample's raw ones.
  await openPpoDump(page, true);
  await expect(page.getByTestId("run-summary")).toContainText("all 8 within", { timeout: 60_000 });
  await expect(page.getByTestId("run-results")).toHaveAttribute("aria-busy", "false", { timeout: 60_000 });
  await page.getByTestId("run-open-playground").click();
  await expect(page.getByTestId("results")).toHaveAttribute("aria-busy", "false", { timeout: 90_000 });
  await expect(page.getByTestId("dump-banner-normalization")).toContainText(
    "whitened over the whole batch of 8 samples",
  );
  await expect(page.getByTestId("estimator-select")).toHaveValue("gae");
});

/** A file with nothing to replay: its kind said, no samples table, no settings search, no NaN anywhere. */
async function expectNothingReplayed(page: Page, kind: "plain" | "rollout"): Promise<void> {
  await expect(page.getByTestId("run-file-kind")).toHaveAttribute("data-kind", kind);
  await expect(page.getByTestId("run-samples")).toHaveCount(0);
  await expect(page.getByTestId("run-search")).toHaveCount(0);
  await expect(page.locator(".run-view")).not.toContainText("NaN");
}

test("a plain file and a rollout dump say what they are, with no NaN, no table and no settings search", async ({
  page,
}) => {
  await openRunFile(page, sharedDump("plain_dict.pt"));
  await expect(page.getByTestId("run-summary")).toContainText(
    "plain_dict.pt: not a slime train dump, nothing to replay (lanes found: rewards (4 rows), lossMask (4 rows)); open it in the playground",
    { timeout: 60_000 },
  );
  await expectNothingReplayed(page, "plain");
  await expect(page.getByTestId("run-heatmap")).toHaveCount(0);

  await page.getByTestId("run-file-input").setInputFiles(sharedDump("rollout_eval_5.pt"));
  await expect(page.getByTestId("run-summary")).toContainText(
    "rollout_eval_5.pt: a rollout dump (4 Samples) holds no advantages; choose its train dump too",
    { timeout: 60_000 },
  );
  await expectNothingReplayed(page, "rollout");

  // The plain file's lanes, opened in the playground: its 4 rows scanned there.
  await page.getByTestId("run-file-input").setInputFiles(sharedDump("batch.npz"));
  await expect(page.getByTestId("run-summary")).toContainText("lanes found: rewards (4 rows), values (4 rows)", {
    timeout: 60_000,
  });
  await page.getByTestId("run-open-lanes").click();
  await expect(page.getByTestId("results")).toHaveAttribute("aria-busy", "false", { timeout: 90_000 });
  await expect(page.getByTestId("estimator-select")).toHaveValue("gae");
  await expect(page.locator(".error-heatmap")).toContainText("4 rows");
});

test("the selected sample, or the failing ones, as a case file and a pytest file", async ({ page }) => {
  await openRunDump(page);
  await page.getByRole("button", { name: "Show sample 2", exact: true }).click();
  await expect(page.getByTestId("run-exports")).toContainText("Export sample 2");
  const [cases] = await Promise.all([page.waitForEvent("download"), page.getByTestId("run-export-cases").click()]);
  expect(cases.suggestedFilename()).toBe("train_rpp_g099_kl005_sample_2.cases.json");
  const file = JSON.parse(readFileSync((await cases.path()) as string, "utf8"));
  expect(file.cases).toHaveLength(1);
  expect(file.cases[0]).toMatchObject({ kind: "slime_dump" });
  expect(file.cases[0].samples.map((s: { loss_mask: number[] }) => s.loss_mask.length)).toEqual([1269]);
  await expect(page.getByTestId("run-export-status")).toContainText("Saved train_rpp_g099_kl005_sample_2.cases.json");

  const [pytest] = await Promise.all([page.waitForEvent("download"), page.getByTestId("run-export-pytest").click()]);
  expect(pytest.suggestedFilename()).toBe("test_train_rpp_g099_kl005_sample_2.py");
  const py = readFileSync((await pytest.path()) as string, "utf8");
  expect(py).toContain("# Scanlab run view export: train_rpp_g099_kl005.pt, sample 2");
  expect(py).toContain("get_reinforce_plus_plus_returns");

  // Replayed without its normalisation, the ppo dump fails: the failing samples are exported, the whole
  // batch in the case file (its advantages were whitened over all 8).
  await openPpoDump(page, false);
  await expect(page.getByTestId("run-summary")).toContainText(/\d over/, { timeout: 60_000 });
  await expect(page.getByTestId("run-exports")).toContainText(/Export the \d failing samples?/);
  const [failing] = await Promise.all([page.waitForEvent("download"), page.getByTestId("run-export-pytest").click()]);
  expect(failing.suggestedFilename()).toMatch(/^test_train_ppo_g099_l095_kl002_samples?_[\d_]+\.py$/);
  expect(readFileSync((await failing.path()) as string, "utf8")).toContain("chunked_gae");
});

test("the heatmap shows the KL: the gap to the recomputed KL, or the stored KL itself, and its legend says which", async ({
  page,
}) => {
  await openRunDump(page);
  await page.getByTestId("run-field-kl").check();
  await expect(page.getByTestId("run-heatmap")).toHaveAttribute("data-field", "kl");
  await expect(page.getByTestId("run-heatmap-caption")).toHaveAttribute("data-reference", "replayed");
  await expect(page.getByTestId("run-heatmap").locator(".heatmap-legend-title")).toHaveText(
    "absolute error |stored kl − recomputed kl|",
  );
  await expect(page.getByTestId("run-sample-chart")).toHaveAttribute("data-field", "kl");
  await expect(page.getByTestId("run-results")).toHaveAttribute("aria-busy", "false", { timeout: 60_000 });
  // The hovered cell's values come from the run worker, which keeps the grids: the page holds none.
  const overlay = page.getByTestId("run-heatmap").locator(".error-heatmap-overlay");
  const box = await overlay.boundingBox();
  if (!box) throw new Error("the heatmap is drawn");
  await overlay.hover({ position: { x: box.width * 0.6, y: box.height * 0.3 } });
  await expect(page.getByTestId("run-heatmap").locator(".error-heatmap-readout")).toContainText(
    /row \d+ · t \d+ · .*(recomputed kl -?[\d.e+-]+ · stored kl -?[\d.e+-]+ · abs|padding)/,
  );
  await page.getByTestId("run-field-advantages").check();
  await overlay.focus();
  await page.keyboard.press("ArrowRight");
  await expect(page.getByTestId("run-heatmap").locator(".error-heatmap-readout")).toContainText(
    /row \d+ · t \d+ · chunk \d+ · reference -?[\d.e+-]+ · dump -?[\d.e+-]+ · abs .* ulp/,
  );

  // kl_coef 0: the replay recomputes no KL, so the colour is the stored KL itself.
  await openRunFile(page, generatedDump("grpo_kl0.pt"), "&advantage_estimator=grpo");
  await expect(page.getByTestId("run-results")).toHaveAttribute("aria-busy", "false", { timeout: 60_000 });
  await expect(page.getByTestId("run-summary")).toContainText("grpo_kl0.pt (train dump)");
  const kl = page.getByTestId("run-field-kl");
  if (await kl.isDisabled()) {
    // A dump that stores no kl at all: the choice says so and stays off.
    await expect(kl).toBeDisabled();
  } else {
    await kl.check();
    await expect(page.getByTestId("run-heatmap-caption")).toHaveAttribute("data-reference", "zero");
    await expect(page.getByTestId("run-heatmap").locator(".heatmap-legend-title")).toHaveText(
      "absolute difference |stored kl − 0|",
    );
  }
});
