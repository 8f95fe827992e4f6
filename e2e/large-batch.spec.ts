import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { expect, test } from "@playwright/test";
import { normals, seededRandom } from "../src/core/testRandom";
import { buildCase, buildCaseFile } from "../src/io/caseBuilder";
import { collectProblems } from "./pageProblems";

/**
 * A batch far larger than a teaching example, 64 rows × 32768 tokens (2^21 cells, a 120 MB case
 * file with its float64 truth and slime's float32 result), checked end to end in the conformance
 * view on wasm and on webgpu: it must finish and pass within its bounds, with progress shown while
 * it runs. The longest main-thread tasks are printed (figures, not asserted: they move with the
 * machine's load); reading, validating and judging the file happen in its worker (caseFileWorker.ts).
 */
test.describe.configure({ timeout: 480_000 });

/** SCANLAB_LARGE_ROWS and SCANLAB_LARGE_TOKENS measure other sizes (the largest that fits: README). */
const ROWS = Number(process.env.SCANLAB_LARGE_ROWS ?? 64);
const TOKENS = Number(process.env.SCANLAB_LARGE_TOKENS ?? 32768);
let file: string | undefined;

/** The case file on disk (Playwright passes a buffer of at most 50 MB), written once per worker. */
function caseFile(): string {
  if (!file) {
    const data = Float64Array.from(normals(seededRandom(64), ROWS * TOKENS), Math.fround);
    const problem = {
      kind: "discounted" as const,
      rewards: { rows: ROWS, cols: TOKENS, data },
      discount: 0.99,
      chunkSize: 128,
    };
    file = join(mkdtempSync(join(tmpdir(), "scanlab-large-")), "big.json");
    writeFileSync(file, JSON.stringify(buildCaseFile([buildCase(problem, `b${ROWS}_t${TOKENS}`)])));
  }
  return file;
}

// 120 MB each run: not left behind in the temporary folder.
test.afterAll(() => {
  if (file) rmSync(dirname(file), { recursive: true, force: true });
});

for (const backend of ["wasm", "webgpu"] as const) {
  test(`${ROWS} × ${TOKENS} tokens pass on ${backend}, with progress, and the page keeps answering`, async ({
    page,
  }) => {
    const problems = collectProblems(page);
    await page.goto(`/?view=conformance&backend=${backend}`);
    await page.evaluate(() => {
      const w = window as unknown as { longTasks: number[]; progress: string[] };
      w.longTasks = [];
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) w.longTasks.push(entry.duration);
      }).observe({ type: "longtask", buffered: false });
      // Every progress line the page shows, however briefly: the engine's run of the case can be
      // over in well under a second, too quick for a polling expectation to catch.
      w.progress = [];
      new MutationObserver(() => {
        const line = document.querySelector('[data-testid="conformance-progress"]')?.textContent;
        if (line && line !== w.progress.at(-1)) w.progress.push(line);
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    const started = Date.now();
    await page.getByTestId("case-file-input").setInputFiles(caseFile());
    await expect(page.getByTestId("conformance-summary")).toHaveText("1 passed, 0 failed", { timeout: 420_000 });
    // The page answered while the file was parsed (in a worker) and the case ran: the progress line
    // named the case and its elapsed time.
    const progress = await page.evaluate(() => (window as unknown as { progress: string[] }).progress);
    const named = new RegExp(`^.*Case 1 \\(b${ROWS}_t${TOKENS}\\) for \\d+\\.\\d s; the run \\d+\\.\\d s\\.$`);
    expect(progress.filter((line) => named.test(line)).length, progress.join("\n")).toBeGreaterThan(0);
    await expect(page.getByTestId("backend")).toHaveText(backend);
    // Verdicts drawn: the tasks that draw them count too.
    await expect(page.getByTestId("verdict-row")).toHaveAttribute("data-state", "pass");
    const tasks = await page.evaluate(() => (window as unknown as { longTasks: number[] }).longTasks);
    const longest = [...tasks]
      .sort((a, b) => b - a)
      .slice(0, 5)
      .map(Math.round);
    console.log(
      `${backend}: ${ROWS} × ${TOKENS} checked in ${Date.now() - started} ms; longest main-thread tasks ${longest.length ? `${longest.join(", ")} ms` : "none over 50 ms"}; ${tasks.filter((t) => t > 200).length} over 200 ms`,
    );
    expect(problems).toEqual([]);
  });
}

test("cancelling a large run brings back the previous run's results, saying so", async ({ page }) => {
  const problems = collectProblems(page);
  await page.goto("/?view=conformance&backend=wasm");
  await page.getByTestId("load-public-cases").click();
  const summary = page.getByTestId("conformance-summary");
  await expect(summary).toHaveText(/^\d+ passed, 0 failed$/, { timeout: 120_000 });
  const before = await summary.textContent();
  // The case can run in well under a second once the file is read, too soon for a click from here:
  // the page clicks Cancel itself as soon as the progress line names the case.
  await page.evaluate(() => {
    const w = window as unknown as { cancelledAt: Promise<string> };
    w.cancelledAt = new Promise((resolve) => {
      const observer = new MutationObserver(() => {
        const line = document.querySelector('[data-testid="conformance-progress"]')?.textContent ?? "";
        const cancel = document.querySelector<HTMLButtonElement>('[data-testid="cancel-conformance"]');
        if (!cancel || !/Case 1 \(b\d+_t\d+\) for \d+\.\d s/.test(line)) return;
        observer.disconnect();
        cancel.click();
        resolve(line);
      });
      observer.observe(document.body, { subtree: true, childList: true, characterData: true });
    });
  });
  await page.getByTestId("case-file-input").setInputFiles(caseFile());
  expect(await page.evaluate(() => (window as unknown as { cancelledAt: Promise<string> }).cancelledAt)).toMatch(
    /Case 1 \(b\d+_t\d+\) for \d+\.\d s/,
  );
  await expect(page.getByTestId("conformance-cancelled")).toHaveText(
    /^Cancelled the run of big\.json after 0 of 1 cases; below: the previous run's results \(public_cases\.json\)\.$/,
  );
  await expect(summary).toHaveText(before ?? "");
  await expect(page.getByTestId("case-file-name")).toHaveText("public_cases.json");
  await expect(page.getByTestId("conformance-results")).toHaveAttribute("aria-busy", "false");
  await page.screenshot({ path: "/tmp/bigbatch/conformance-cancelled.png" });
  expect(problems).toEqual([]);
});
