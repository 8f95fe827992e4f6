import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "@playwright/test";
import { manySamples, trainDumpBytes } from "../src/testing/flatTrainDump";
import { longTasksSince, pageNow, watchLongTasks } from "./longTasks";
import { expect, test } from "./pageProblems";
import { openRunDump } from "./runPage";

/**
 * The run view's step: the samples table of a normal slime batch (4,096 samples) renders only the rows
 * in view and keeps the keyboard; the selected sample's every per-token field on one token axis; each
 * tab keeps its own run across a reload. The longest main-thread tasks are reported, not asserted.
 */

/** The settings the written dumps were made with (src/testing/flatTrainDump.ts): every sample passes. */
const WRITTEN_SETTINGS = "advantage_estimator=reinforce_plus_plus&gamma=1&kl_coef=0";

/**
 * A written dump as a file on disk: handed to the page by its path, so the page's main thread does not
 * receive megabytes of bytes through the test's protocol (which it counts as one long task).
 */
async function writtenDump(name: string, samples: number, length: (i: number) => number): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), "scanlab-step-view-"));
  const path = join(dir, name);
  writeFileSync(path, await trainDumpBytes(manySamples(samples, length)));
  return path;
}

/** Whether the row lies within its scrolling table's visible part (the table itself may be below the page's fold). */
async function inTableView(page: Page, sample: string): Promise<boolean> {
  return page.getByTestId("run-samples").evaluate((table, wanted) => {
    const row = table.querySelector(`tbody tr[data-sample="${wanted}"]`);
    const scroller = table.parentElement;
    if (!row || !scroller) return false;
    const r = row.getBoundingClientRect();
    const s = scroller.getBoundingClientRect();
    return r.top >= s.top - 1 && r.bottom <= s.bottom + 1;
  }, sample);
}

async function settled(page: Page): Promise<void> {
  await expect(page.getByTestId("run-results")).toHaveAttribute("aria-busy", "false", { timeout: 90_000 });
}

for (const samples of [4096, 8192]) {
  test(`${samples} samples: only the rows in view are in the page; the keyboard moves the selection and it is scrolled into view`, async ({
    page,
  }) => {
    test.setTimeout(180_000);
    await watchLongTasks(page);
    const dump = await writtenDump(`train_${samples}.pt`, samples, (i) => 8 + ((i * 37) % 120));
    await page.goto(`/?view=run&${WRITTEN_SETTINGS}`);
    const loadFrom = await pageNow(page);
    await page.getByTestId("run-file-input").setInputFiles(dump);
    await expect(page.getByTestId("run-summary")).toContainText(`all ${samples} within their float32 bounds`, {
      timeout: 90_000,
    });
    await settled(page);
    const load = await longTasksSince(page, loadFrom);

    const table = page.getByTestId("run-samples");
    await expect(table).toHaveAttribute("aria-rowcount", String(samples + 1));
    const inPage = await table.locator("tbody tr[data-sample]").count();
    expect(inPage).toBeGreaterThan(5);
    expect(inPage).toBeLessThan(80);

    // A click on a row in view.
    const third = (await table.locator("tbody tr[data-sample]").nth(2).getAttribute("data-sample")) ?? "";
    const selectFrom = await pageNow(page);
    await page.getByRole("button", { name: `Show sample ${third}`, exact: true }).click();
    await expect(page.getByTestId("run-sample-chart")).toHaveAttribute("data-sample", third);
    await settled(page);
    const select = await longTasksSince(page, selectFrom);

    // The heatmap's field switched.
    const fieldFrom = await pageNow(page);
    await page.getByTestId("run-field-returns").check();
    await expect(page.getByTestId("run-heatmap")).toHaveAttribute("data-field", "returns");
    await settled(page);
    const field = await longTasksSince(page, fieldFrom);

    const first = (await table.locator('tbody tr[aria-rowindex="2"]').getAttribute("data-sample")) ?? "";
    // End selects the last row of the order, scrolled into view; ↑ the one before it.
    await table.locator("xpath=..").focus();
    await page.keyboard.press("End");
    const lastRow = table.locator(`tbody tr[aria-rowindex="${samples + 1}"]`);
    await expect(lastRow).toHaveAttribute("aria-selected", "true");
    const last = (await lastRow.getAttribute("data-sample")) ?? "";
    await expect.poll(() => inTableView(page, last)).toBe(true);
    await expect(page.getByTestId("run-sample-chart")).toHaveAttribute("data-sample", last);
    await page.keyboard.press("ArrowUp");
    await expect(table.locator(`tbody tr[aria-rowindex="${samples}"]`)).toHaveAttribute("aria-selected", "true");
    expect(await table.locator("tbody tr[data-sample]").count()).toBeLessThan(80);

    // Home: back to the first row, scrolled into view again.
    await page.keyboard.press("Home");
    await expect(page.getByTestId("run-sample-chart")).toHaveAttribute("data-sample", first);
    await expect.poll(() => inTableView(page, first)).toBe(true);
    await settled(page);

    test.info().annotations.push({
      type: "long tasks",
      description: `${samples} samples: load longest ${load.longest} ms (${load.count} over 50 ms); select ${select.longest} ms (${select.count}); field ${field.longest} ms (${field.count})`,
    });
    console.log(test.info().annotations.at(-1)?.description);
  });
}

test("the selected sample's every per-token field on one token axis, tool spans shaded, each line's engine named", async ({
  page,
}) => {
  test.setTimeout(180_000);
  const shots = test.info().outputPath();
  // Teaching size: slime's REINFORCE++ dump, multi-turn masks.
  await openRunDump(page);
  await page.getByRole("button", { name: "Show sample 0", exact: true }).click();
  const fields = page.getByTestId("sample-fields");
  await expect(fields).toHaveAttribute("data-sample", "0");
  await expect(fields).toHaveAttribute("aria-busy", "false");
  const present = ((await fields.getAttribute("data-fields")) ?? "").split(" ");
  expect(present).toEqual(expect.arrayContaining(["advantages", "returns", "kl", "log_probs", "loss_masks"]));
  await expect(fields).toContainText("Scanlab's float64 replay");
  await expect(fields).toContainText("slime's stored float32 (the dump)");
  // The advantages drawn twice: the replay's line and the dump's.
  await expect(fields.locator('path[data-name="advantages replayed"]')).toHaveCount(1);
  await expect(fields.locator('path[data-name="advantages stored"]')).toHaveCount(1);
  // The picker: ticking the loss mask adds its chart, unticking the KL removes its.
  await fields.getByTestId("sample-field-loss_masks").check();
  await expect(fields.locator('figure[data-field="loss_masks"]')).toHaveCount(1);
  await fields.getByTestId("sample-field-kl").uncheck();
  await expect(fields.locator('figure[data-field="kl"]')).toHaveCount(0);
  // One hover line through every chart, with every shown field's value at that token.
  const firstChart = fields.locator("figure").first();
  const box = await firstChart.boundingBox();
  if (!box) throw new Error("no chart box");
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await expect(fields.getByTestId("sample-fields-readout")).toContainText(/token \d+: advantages/);
  await fields.screenshot({ path: `${shots}/fields-teaching.png` });

  // A 16k-token sample, with tool spans.
  const long = await writtenDump("train_long.pt", 4, (i) => (i === 0 ? 16_384 : 64));
  await page.goto(`/?view=run&${WRITTEN_SETTINGS}`);
  await page.getByTestId("run-file-input").setInputFiles(long);
  await settled(page);
  await page.getByRole("button", { name: "Show sample 0", exact: true }).click();
  await expect(fields).toHaveAttribute("data-sample", "0");
  // A 16k-token sample's charts are drawn in later tasks; under load that takes more than the default 5 s.
  await expect(fields).toContainText("16384 tokens", { timeout: 30_000 });
  await expect(fields).toContainText("1 span, 4096 tokens");
  expect(((await fields.getAttribute("data-fields")) ?? "").split(" ")).toContain("entropy");
  await expect(fields.locator('figure[data-field="entropy"]')).toHaveCount(1);
  await fields.screenshot({ path: `${shots}/fields-16k.png` });

  // On a phone.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(fields.locator("figure").first()).toBeVisible();
  // Once the charts have followed the new width, nothing is wider than the phone.
  await expect
    .poll(() => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), {
      timeout: 30_000,
    })
    .toBeLessThanOrEqual(0);
  await fields.screenshot({ path: `${shots}/fields-390.png` });
});

test("each tab keeps its own run across a reload, and a kept file deleted on disk is named, not silently dropped", async ({
  page,
  context,
}) => {
  test.setTimeout(180_000);
  await page.goto(`/?view=run&${WRITTEN_SETTINGS}`);
  await expect(page.getByTestId("run-kept")).toContainText("in this tab only");
  // Tab A: a written dump of 6 samples; tab B: one of 9.
  await page.getByTestId("run-file-input").setInputFiles(await writtenDump("tab_a.pt", 6, () => 40));
  await expect(page.getByTestId("run-summary")).toContainText("tab_a.pt (train dump): 6 samples", { timeout: 60_000 });
  const other = await context.newPage();
  await other.goto(`/?view=run&${WRITTEN_SETTINGS}`);
  const kept = await writtenDump("tab_b.pt", 9, () => 40);
  await other.getByTestId("run-file-input").setInputFiles(kept);
  await expect(other.getByTestId("run-summary")).toContainText("tab_b.pt (train dump): 9 samples", { timeout: 60_000 });
  await settled(other);

  await page.reload();
  await expect(page.getByTestId("run-summary")).toContainText("tab_a.pt (train dump): 6 samples", { timeout: 60_000 });
  await other.reload();
  await expect(other.getByTestId("run-summary")).toContainText("tab_b.pt (train dump): 9 samples", { timeout: 60_000 });
  await settled(other);

  // Tab B's file deleted on disk: the reload names it and asks for it again.
  rmSync(kept);
  await other.reload();
  const notice = other.getByTestId("run-kept-problem");
  await expect(notice).toContainText("tab_b.pt");
  await expect(notice).toContainText("choose it again");
  await expect(other.getByTestId("run-summary")).toHaveText("No dump open yet.");
  // Tab A still has its own.
  await page.reload();
  await expect(page.getByTestId("run-summary")).toContainText("tab_a.pt (train dump): 6 samples", { timeout: 60_000 });
  await expect(page.getByTestId("run-kept-problem")).toHaveCount(0);
});
