import { expect, type Page, test } from "@playwright/test";
import { normals, seededRandom } from "../src/core/testRandom";
import { buildCase } from "../src/io/caseBuilder";
import { loadCaseFile, oneTokenCases, publicCasesText, useConformancePage } from "./conformance-page";

/**
 * A script that waits for `conformance-summary` must only ever see a finished run's line. These
 * tests watch the page from the moment a new file is chosen (or a menu re-runs), from Node by
 * polling as a script would, and in the page with a MutationObserver that sees every DOM state.
 */

const PUBLIC_OK = "33 passed, 0 failed";
const FAILED_LINE = /^\d+ passed, [1-9]\d* failed$/;

/** The public cases renamed `edited_*`, the first one expecting a wrong number, and long cases after them. */
function wrongFirstFile(): { text: string; count: number; firstName: string } {
  const file = JSON.parse(publicCasesText);
  for (const c of file.cases) c.name = `edited_${c.name}`;
  file.cases[0].expected.returns[0] += 1;
  const random = seededRandom(11);
  for (let i = 0; i < 3; i++) {
    const rewards = { rows: 2, cols: 12_000, data: normals(random, 24_000) };
    file.cases.push(buildCase({ kind: "discounted", rewards, discount: 0.999, chunkSize: 128 }, `edited_long_${i}`));
  }
  return { text: JSON.stringify(file), count: file.cases.length, firstName: file.cases[0].name };
}

/** The first `count` public cases, renamed `small_*`. */
function smallFile(count: number): string {
  const file = JSON.parse(publicCasesText);
  file.cases = file.cases.slice(0, count).map((c: { name: string }) => ({ ...c, name: `small_${c.name}` }));
  return JSON.stringify(file);
}

interface Seen {
  /** Counts the files chosen since watching began; a state is recorded under the count at that time. */
  choices: number;
  summaries: (string | null)[];
  busy: (string | null)[];
  /** Names of rows shown as passed, after the last file was chosen. */
  passedNames: string[];
}

/**
 * Records, at every DOM change from the next file choice on, the summary, aria-busy and the rows
 * shown as passed; a new choice (seen before the page handles it) starts the record afresh.
 */
async function watchResults(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { seen: Seen; stopWatching?: () => void };
    // The page is shared with earlier tests: an earlier watcher stops recording.
    w.stopWatching?.();
    const seen: Seen = { choices: 0, summaries: [], busy: [], passedNames: [] };
    w.seen = seen;
    const restart = () => {
      seen.choices++;
      seen.summaries = [];
      seen.busy = [];
      seen.passedNames = [];
    };
    window.addEventListener("change", restart, { capture: true });
    const observer = new MutationObserver(() => {
      if (seen.choices === 0) return;
      seen.summaries.push(document.querySelector('[data-testid="conformance-summary"]')?.textContent ?? null);
      seen.busy.push(document.querySelector('[data-testid="conformance-results"]')?.getAttribute("aria-busy") ?? null);
      for (const row of document.querySelectorAll('[data-testid="verdict-row"][data-state="pass"]')) {
        seen.passedNames.push(row.querySelector(".case-name")?.textContent ?? "");
      }
    });
    observer.observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
    w.stopWatching = () => {
      observer.disconnect();
      window.removeEventListener("change", restart, { capture: true });
    };
  });
}

async function seenInPage(page: Page): Promise<Seen> {
  return page.evaluate(() => (window as unknown as { seen: Seen }).seen);
}

/**
 * Chooses `value` in the menu `testId` and reads the summary and aria-busy in the same call: on a
 * warm page a rerun of the public cases can finish between two calls from here.
 */
async function chooseAndLook(
  page: Page,
  testId: string,
  value: string,
): Promise<{ summary: string | null; busy: unknown }> {
  return page.evaluate(
    async ([testId, value]) => {
      const select = document.querySelector<HTMLSelectElement>(`[data-testid="${testId}"]`);
      if (!select) throw new Error(`no ${testId}`);
      select.value = value;
      select.dispatchEvent(new Event("change", { bubbles: true }));
      // React renders a discrete event's update in a microtask queued during the event: wait for that one.
      await new Promise<void>((resolve) => queueMicrotask(resolve));
      return {
        summary: document.querySelector('[data-testid="conformance-summary"]')?.textContent ?? null,
        busy: document.querySelector('[data-testid="conformance-results"]')?.getAttribute("aria-busy"),
      };
    },
    [testId, value],
  );
}

/** Polls as a script would until the summary matches `done`; returns every summary text seen on the way. */
async function pollSummary(page: Page, done: RegExp | string, timeoutMs: number): Promise<string[]> {
  const seen: string[] = [];
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const texts = await page.getByTestId("conformance-summary").allTextContents();
    seen.push(...texts);
    if (texts.some((t) => (typeof done === "string" ? t === done : done.test(t)))) return seen;
    if (Date.now() > deadline) throw new Error(`no summary matching ${done} within ${timeoutMs} ms; saw ${seen}`);
    await page.waitForTimeout(5);
  }
}

/**
 * One wasm page for all of them, in this order (the last one leaves it on cpu): each test starts
 * from whatever the one before left on screen, as a user's next file would. The race these tests
 * look for is in the view's run bookkeeping, which is the same whatever backend answers: the
 * engine's messages to the page do not depend on the backend.
 */
test.describe("one conformance page on wasm", () => {
  const shared = useConformancePage("backend=wasm");

  test("every way of choosing a file (drop, built-in button) takes the previous summary away at once", async () => {
    const { page, problems } = shared;
    const summary = page.getByTestId("conformance-summary");
    await page.getByTestId("load-public-cases").click();
    expect(await summary.count()).toBe(0);
    await expect(summary).toHaveText(PUBLIC_OK, { timeout: 60_000 });

    // Dropped and looked at in one go: a run of 5 small cases can finish between two calls from here.
    const afterDrop = await page.evaluate(async (text) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([text], "dropped.json", { type: "application/json" }));
      const zone = document.querySelector('[aria-label="Case file"]');
      zone?.dispatchEvent(new DragEvent("drop", { dataTransfer: transfer, bubbles: true, cancelable: true }));
      // React renders a discrete event's update in a microtask queued during the event: wait for that one.
      await new Promise<void>((resolve) => queueMicrotask(resolve));
      return {
        zone: zone !== null,
        summary: document.querySelector('[data-testid="conformance-summary"]')?.textContent ?? null,
        busy: document.querySelector('[data-testid="conformance-results"]')?.getAttribute("aria-busy"),
      };
    }, smallFile(5));
    expect(afterDrop).toEqual({ zone: true, summary: null, busy: "true" });
    await expect(summary).toHaveText("5 passed, 0 failed", { timeout: 60_000 });
    await expect(page.getByTestId("case-file-name")).toHaveText("dropped.json");

    await page.getByTestId("load-public-cases").click();
    expect(await summary.count()).toBe(0);
    await expect(summary).toHaveText(PUBLIC_OK, { timeout: 60_000 });
    expect(problems).toEqual([]);
  });

  test("a bad file hides nothing for good: the previous finished results come back with the error", async () => {
    const { page, problems } = shared;
    await loadCaseFile(page, "public_cases.json", publicCasesText);
    // The test before ended on the same summary: this one must be the new run's.
    expect(await page.getByTestId("conformance-summary").count()).toBe(0);
    await expect(page.getByTestId("conformance-summary")).toHaveText(PUBLIC_OK, { timeout: 60_000 });
    await loadCaseFile(page, "empty.json", JSON.stringify({ meta: { schema_version: 1 }, cases: [] }));
    await expect(page.getByTestId("error-message")).toHaveText(
      "empty.json: the file has no cases, so there is nothing to check",
    );
    await expect(page.getByTestId("conformance-summary")).toHaveText(PUBLIC_OK);
    await expect(page.getByTestId("case-file-name")).toHaveText("public_cases.json");
    await expect(page.getByTestId("conformance-results")).toHaveAttribute("aria-busy", "false");
    expect(problems).toEqual([]);
  });

  test("a run superseded by a newer file never writes its rows or its summary", async () => {
    test.setTimeout(120_000);
    const { page, problems } = shared;
    await expect(page.getByTestId("backend")).toHaveText("wasm", { timeout: 30_000 });
    await watchResults(page);
    await loadCaseFile(page, "many.json", oneTokenCases(3000));
    await expect(page.getByTestId("conformance-progress")).toContainText("Running:", { timeout: 30_000 });
    await loadCaseFile(page, "small.json", smallFile(5));
    await expect(page.getByTestId("conformance-summary")).toHaveText("5 passed, 0 failed", { timeout: 60_000 });
    await expect(page.getByTestId("case-file-name")).toHaveText("small.json");
    const rows = page.getByTestId("verdict-row");
    await expect(rows).toHaveCount(5);
    for (const name of await rows.locator(".case-name").allTextContents()) expect(name).toMatch(/^small_/);
    // Wait past the time the superseded run would have needed, then look again.
    await page.waitForTimeout(1500);
    const seen = await seenInPage(page);
    expect(seen.choices).toBe(2);
    expect(new Set(seen.summaries.filter((t) => t !== null))).toEqual(new Set(["5 passed, 0 failed"]));
    expect(seen.passedNames.filter((name) => !name.startsWith("small_"))).toEqual([]);
    await expect(rows).toHaveCount(5);
    await expect(page.getByTestId("verdict-table")).toHaveAttribute("aria-rowcount", "6");
    expect(problems).toEqual([]);
  });

  test("a new file's run never shows the previous file's verdict, its summary or its rows", async () => {
    test.setTimeout(180_000);
    const { page, problems } = shared;
    await loadCaseFile(page, "public_cases.json", publicCasesText);
    await expect(page.getByTestId("conformance-summary")).toHaveText(PUBLIC_OK, { timeout: 90_000 });

    const wrong = wrongFirstFile();
    await watchResults(page);
    await loadCaseFile(page, "wrong_first.json", wrong.text);
    const polled = await pollSummary(page, FAILED_LINE, 120_000);
    expect(polled.filter((t) => t === PUBLIC_OK)).toEqual([]);
    await expect(page.getByTestId("conformance-summary")).toHaveText(`${wrong.count - 1} passed, 1 failed`);
    await expect(page.getByTestId("conformance-results")).toHaveAttribute("aria-busy", "false");

    const seen = await seenInPage(page);
    expect(seen.choices).toBe(1);
    expect(seen.summaries.filter((t) => t === PUBLIC_OK)).toEqual([]);
    // Every mutation while the summary shows records it again: what matters is that it was never another text.
    expect(new Set(seen.summaries.filter((t) => t !== null))).toEqual(new Set([`${wrong.count - 1} passed, 1 failed`]));
    expect(seen.busy).toContain("true");
    // The wrong first case was never shown as passed (an old row under its name would be).
    expect(seen.passedNames).not.toContain(wrong.firstName);

    await page.getByTestId("failures-only").check();
    const failing = page.getByTestId("verdict-row");
    await expect(failing).toHaveCount(1);
    await expect(failing).toHaveAttribute("data-state", "fail");
    await expect(failing.locator(".case-name")).toHaveText(wrong.firstName);
    expect(problems).toEqual([]);
  });

  test("changing the strategy or the backend takes the summary away at once, until the new run finishes", async () => {
    test.setTimeout(120_000);
    const { page, problems } = shared;
    await loadCaseFile(page, "public_cases.json", publicCasesText);
    const summary = page.getByTestId("conformance-summary");
    await expect(summary).toHaveText(PUBLIC_OK, { timeout: 60_000 });

    expect(await chooseAndLook(page, "strategy-select", "two-level")).toEqual({ summary: null, busy: "true" });
    await expect(page.getByTestId("strategy-select")).toHaveValue("two-level");
    await expect(summary).toHaveText(PUBLIC_OK, { timeout: 60_000 });

    expect(await chooseAndLook(page, "backend-select", "cpu")).toEqual({ summary: null, busy: "true" });
    await expect(summary).toHaveText(PUBLIC_OK, { timeout: 60_000 });
    await expect(page.getByTestId("backend")).toHaveText("cpu");
    expect(problems).toEqual([]);
  });
});
