import { expect, type Page, type TestInfo } from "@playwright/test";

/** How many whole-batch results the playground has shown (`data-run`). */
export async function runCount(page: Page): Promise<number> {
  return Number(await page.getByTestId("results").getAttribute("data-run"));
}

/** Waits for the playground's first result and for everything of it to be drawn. */
export async function settled(page: Page): Promise<void> {
  await expect(page.getByTestId("results")).toHaveAttribute("data-run", /^[1-9]/, { timeout: 60_000 });
  await expect(page.getByTestId("results")).toHaveAttribute("aria-busy", "false", { timeout: 60_000 });
}

/** Does `action`, then waits until a result computed after it is on screen and drawn. */
export async function afterRun(page: Page, action: () => Promise<unknown>): Promise<void> {
  const before = await runCount(page);
  await action();
  await expect.poll(() => runCount(page), { timeout: 60_000 }).toBeGreaterThan(before);
  await expect(page.getByTestId("results")).toHaveAttribute("aria-busy", "false", { timeout: 60_000 });
}

/** Chooses `item` of the playground's export menu and saves the file it downloads; returns the file's path. */
export async function exportFile(page: Page, item: string, testInfo: TestInfo): Promise<string> {
  await page.getByTestId("export-menu").click();
  const downloading = page.waitForEvent("download");
  await page.getByTestId(item).click();
  const download = await downloading;
  const path = testInfo.outputPath(download.suggestedFilename());
  await download.saveAs(path);
  return path;
}
