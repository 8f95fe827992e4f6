import { readFileSync } from "node:fs";
import { basename } from "node:path";
import type { Browser, BrowserContext, Page } from "@playwright/test";
import { collectProblems, expect, test } from "./pageProblems";
import { exportFile } from "./playgroundPage";

/** Issue 30 part 5: the session is the user's. A link never takes their batch away, and files read back as written. */

async function settled(page: Page) {
  await expect(page.getByTestId("results")).toHaveAttribute("aria-busy", "false", { timeout: 90_000 });
}

async function importText(page: Page, name: string, text: string) {
  await page.getByTestId("case-file-input").setInputFiles({ name, mimeType: "text/csv", buffer: Buffer.from(text) });
}

/** The batch on the page, as the row menu lists it: `0 (3 tok)`, … */
function batchShape(page: Page): Promise<string[]> {
  return page.getByTestId("row-select").locator("option").allTextContents();
}

/** Waits until the address and the saved session carry the state on the page (saved 400 ms after an edit). */
async function savedSession(page: Page, other: string | null = null): Promise<string> {
  await expect
    .poll(
      () =>
        page.evaluate((before) => {
          const saved = window.localStorage.getItem("scanlab.playground");
          return saved !== null && saved !== before && window.location.hash === `#s=${saved}`;
        }, other),
      // The save follows the first result, which a loaded machine (CI beside other builds) can hold back for seconds.
      { timeout: 30_000 },
    )
    .toBe(true);
  return page.evaluate(() => window.localStorage.getItem("scanlab.playground") ?? "");
}

const USER_BATCH = "1,2,3\n4,5,6\n";

/** Someone else's link: a seeded example of 4 rows, from a browser with no session. */
async function strangersLink(browser: Browser): Promise<URL> {
  const stranger = await browser.newContext();
  const other = await stranger.newPage();
  await other.goto("/?backend=wasm&estimator=discounted&preset=dense&rows=4&tokens=16&seed=3");
  await savedSession(other);
  const link = new URL(other.url());
  await stranger.close();
  return link;
}

/** The user's own browser on the playground, its first result drawn, its page watched for problems. */
async function ownPlayground(browser: Browser): Promise<{ context: BrowserContext; page: Page; problems: string[] }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const problems = collectProblems(page);
  await page.goto("/?backend=wasm&estimator=discounted");
  await settled(page);
  return { context, page, problems };
}

test("a link opened over the user's imported batch keeps it one Undo away, and says so", async ({ browser }) => {
  const link = await strangersLink(browser);
  const { context, page, problems } = await ownPlayground(browser);
  // The page's first state is saved after its first result. Waited for here, so that the session
  // awaited after the import is the import's: on a loaded machine the first save could still be the
  // one on disk when the link's tab read it (a CI run's failure: Undo brought back the first batch).
  const first = await savedSession(page);
  await importText(page, "mine.csv", USER_BATCH);
  await expect(page.getByTestId("import-notes")).toContainText("mine.csv: read 2 lines × 3 columns");
  const mine = await savedSession(page, first);
  await expect(page.getByTestId("session-kept")).toHaveCount(0);

  // The link opens in a new tab of the same browser: its batch shows, the user's is kept.
  const opened = await context.newPage();
  const openedProblems = collectProblems(opened);
  await opened.goto(`/${link.search}${link.hash}`);
  await settled(opened);
  await expect.poll(() => batchShape(opened)).toHaveLength(4);
  await expect(opened.getByTestId("session-kept")).toContainText("Undo (Ctrl+Z) brings it back");
  await expect(opened.getByTestId("undo")).toBeEnabled();
  // Saved over after 400 ms, as any state is, but only once the user's is safely under it.
  const linkSaved = await savedSession(opened, mine);

  await opened.getByTestId("undo").click();
  await settled(opened);
  await expect.poll(() => batchShape(opened)).toEqual(["0 (3 tok)", "1 (3 tok)"]);
  await expect(opened.getByTestId("session-kept")).toHaveCount(0);
  // Undone, the user's batch is the saved session again (with the view settings of the page, which
  // undo leaves alone): a bare address brings it back.
  await savedSession(opened, linkSaved);
  await opened.goto("/?backend=wasm");
  await settled(opened);
  await expect.poll(() => batchShape(opened)).toEqual(["0 (3 tok)", "1 (3 tok)"]);
  await expect(opened.getByTestId("session-kept")).toHaveCount(0);

  // A reload of a page's own address replaces nothing: no note, nothing to undo.
  await savedSession(opened);
  await opened.reload();
  await settled(opened);
  await expect(opened.getByTestId("session-kept")).toHaveCount(0);
  await expect(opened.getByTestId("undo")).toBeDisabled();

  // A link pasted into this tab (only the fragment changes, so no reload): the same.
  await opened.evaluate((hash) => {
    window.location.hash = hash;
  }, link.hash);
  await expect(opened.getByTestId("session-kept")).toBeVisible();
  await expect.poll(() => batchShape(opened)).toHaveLength(4);
  await opened.keyboard.press("Control+z");
  await expect.poll(() => batchShape(opened)).toEqual(["0 (3 tok)", "1 (3 tok)"]);
  expect(problems).toEqual([]);
  expect(openedProblems).toEqual([]);
  await context.close();
});

test("a session too large for local storage (kept in IndexedDB) is read and kept under the link", async ({
  browser,
}) => {
  const link = await strangersLink(browser);
  const { context, page, problems } = await ownPlayground(browser);
  // 16 × 8192 varied values: hundreds of KB of encoded text, past local storage's share.
  const line = (b: number) =>
    Array.from({ length: 8192 }, (_, t) => Math.sin((b * 8192 + t) * 0.37).toFixed(6)).join(",");
  await importText(page, "big.csv", `${Array.from({ length: 16 }, (_, b) => line(b)).join("\n")}\n`);
  await expect(page.getByTestId("import-notes")).toContainText("big.csv: read 16 lines × 8192 columns", {
    timeout: 60_000,
  });
  await expect
    .poll(() => page.evaluate(() => window.localStorage.getItem("scanlab.playground")), { timeout: 60_000 })
    .toBe("scanlab:indexeddb");

  const opened = await context.newPage();
  const openedProblems = collectProblems(opened);
  await opened.goto(`/${link.search}${link.hash}`);
  await expect(opened.getByTestId("session-kept")).toBeVisible({ timeout: 60_000 });
  await expect.poll(() => batchShape(opened)).toHaveLength(4);
  await opened.getByTestId("undo").click();
  await expect.poll(() => batchShape(opened), { timeout: 60_000 }).toHaveLength(16);
  expect(problems).toEqual([]);
  expect(openedProblems).toEqual([]);
  await context.close();
});

test("Scanlab's CSV export imports back as the batch it was", async ({ page }, testInfo) => {
  await page.goto("/?backend=wasm&estimator=discounted");
  await settled(page);
  await importText(page, "mine.csv", USER_BATCH);
  await expect(page.getByTestId("import-notes")).toContainText("mine.csv: read 2 lines × 3 columns");
  await settled(page);
  const before = await page.getByTestId("max-abs-error").textContent();

  const path = await exportFile(page, "export-csv", testInfo);
  const text = readFileSync(path, "utf8");
  expect(text.split("\n")[0]).toMatch(/^row,token,chunk,loss_mask,reward,returns_serial_f64/);

  // Another batch first, so that the import has something to change.
  await importText(page, "other.csv", "9,9\n");
  await expect.poll(() => batchShape(page)).toEqual(["0 (2 tok)"]);
  await importText(page, basename(path), text);
  await expect(page.getByTestId("import-notes")).toContainText(
    `${basename(path)}: read as Scanlab's CSV export: a new batch of 2 rows × 3 tokens`,
  );
  await expect.poll(() => batchShape(page)).toEqual(["0 (3 tok)", "1 (3 tok)"]);
  await settled(page);
  expect(await page.getByTestId("max-abs-error").textContent()).toBe(before);

  // A damaged export names its line.
  await importText(page, "bad.csv", text.replace(/\n0,1,0,1,2,/, "\n0,1,0,7,2,"));
  await expect(page.getByTestId("error-message")).toContainText('bad.csv: line 3: loss_mask is 0 or 1, got "7"');
  await expect.poll(() => batchShape(page)).toEqual(["0 (3 tok)", "1 (3 tok)"]);
});

test("a loss mask whose first line is 0,1 is asked about, not dropped as pandas' labels", async ({ page }) => {
  await page.goto("/?backend=wasm&estimator=discounted");
  await settled(page);
  await page.getByTestId("import-menu").click();
  await page.getByTestId("import-lane").selectOption("lossMask");
  await page.getByTestId("import-menu").click();

  const mask = "0,1\n1,1,0\n";
  await importText(page, "mask.csv", mask);
  await expect(page.getByTestId("import-question")).toContainText("mask.csv: line 1 reads 0,1");
  await page.getByTestId("import-choice-first-line-data").click();
  await expect(page.getByTestId("import-question")).toHaveCount(0);
  await expect(page.getByTestId("import-notes")).toContainText("mask.csv: line 1 (0, 1) was read as data, as asked");
  await expect.poll(() => batchShape(page)).toEqual(["0 (2 tok)", "1 (3 tok)"]);

  await importText(page, "labelled.csv", mask);
  await page.getByTestId("import-choice-first-line-labels").click();
  await expect(page.getByTestId("import-notes")).toContainText(
    "labelled.csv: line 1 (0, 1) was read as pandas' column labels and skipped",
  );
  await expect.poll(() => batchShape(page)).toEqual(["0 (3 tok)"]);
});
