import { expect, test } from "@playwright/test";
import { loadCaseFile, oneTokenCases, openConformance } from "./conformance-page";

/**
 * The page keeps up with `scanlab check`: 10,000 one-token cases take 1–2 s on the command line.
 * Drawing the whole table once per finished case took over five minutes; rows are now drawn in
 * batches into a virtualized table. The limit is generous (a 2-core machine, shared).
 */
const COUNT = 10_000;
const WRONG = 7_777;

for (const backend of ["wasm"]) {
  test(`10,000 one-token cases finish within a minute on ${backend}, and the failing one is findable`, async ({
    page,
  }) => {
    test.setTimeout(90_000);
    const problems = await openConformance(page, `backend=${backend}`);
    await expect(page.getByTestId("backend")).toHaveText(backend, { timeout: 30_000 });
    const file = oneTokenCases(COUNT, [WRONG]);
    const start = Date.now();
    await loadCaseFile(page, "ten_thousand.json", file);
    await expect(page.getByTestId("conformance-summary")).toHaveText(`${COUNT - 1} passed, 1 failed`, {
      timeout: 60_000,
    });
    const seconds = (Date.now() - start) / 1000;
    test
      .info()
      .annotations.push({ type: "timing", description: `${COUNT} cases on ${backend}: ${seconds.toFixed(1)} s` });
    console.log(`${COUNT} one-token cases on ${backend}: ${seconds.toFixed(1)} s`);

    const table = page.getByTestId("verdict-table");
    await expect(table).toHaveAttribute("aria-rowcount", String(COUNT + 1));
    // Only the rows in view are in the page; the filter brings the failing one into view.
    expect(await page.getByTestId("verdict-row").count()).toBeLessThan(200);
    await page.getByTestId("failures-only").check();
    const failing = page.getByTestId("verdict-row");
    await expect(failing).toHaveCount(1);
    await expect(failing).toHaveAttribute("data-state", "fail");
    await expect(failing).toContainText(`one_${WRONG}`);
    await expect(failing).toHaveAttribute("aria-rowindex", "2");
    expect(problems).toEqual([]);
  });
}
