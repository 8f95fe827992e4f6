import { expect, test } from "@playwright/test";
import { normals, seededRandom } from "../src/core/testRandom";
import { writeNpy } from "../src/io/npyTestFile";
import { MAX_CELLS } from "../src/io/playgroundState";
import { collectProblems } from "./pageProblems";

/**
 * A batch far beyond teaching size, 64 × 32768 tokens (2^21 cells), in the playground: the run
 * shows what it is doing and for how long, a Cancel stops it and leaves the previous result on
 * screen saying so, and running it again completes. The longest main-thread task and the run's
 * time are printed (figures, not asserted: they move with the machine's load).
 * SCANLAB_BIGBATCH_BACKEND picks the engine's backend (webgpu by default; wasm also measured).
 */
test.describe.configure({ timeout: 240_000 });

const BACKEND = process.env.SCANLAB_BIGBATCH_BACKEND ?? "webgpu";
const ROWS = 64;
const TOKENS = 32768;
const slow = { timeout: 200_000 };

function bigNpy(): Buffer {
  const values = Float32Array.from(normals(seededRandom(5), ROWS * TOKENS), Math.fround);
  return Buffer.from(writeNpy(values, [ROWS, TOKENS]));
}

test(`${ROWS} × ${TOKENS} tokens: progress, cancel keeps the previous result, a second run completes (${BACKEND})`, async ({
  page,
}) => {
  const problems = collectProblems(page);
  await page.addInitScript(() => {
    const w = window as unknown as { longest: number };
    w.longest = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) w.longest = Math.max(w.longest, entry.duration);
    }).observe({ type: "longtask", buffered: true });
  });
  // Beyond teaching size: the first result's heatmap is pooled by the playground worker.
  await page.goto(`/?preset=dense&rows=16&tokens=1024&seed=1&precision=float32-engine&backend=${BACKEND}`);
  const results = page.getByTestId("results");
  await expect(results).toHaveAttribute("data-run", "1", slow);
  await expect(results).toHaveAttribute("aria-busy", "false", slow);
  const before = await page.getByTestId("max-abs-error").textContent();
  const input = page.getByTestId("case-file-input");
  const file = { name: "big.npy", mimeType: "application/octet-stream", buffer: bigNpy() };

  // Too large: refused at once, naming the limit and the size asked for; the result stays.
  const tooBig = Buffer.from(writeNpy(new Float32Array(1025), [1025, 1]));
  await input.setInputFiles({ name: "tall.npy", mimeType: "application/octet-stream", buffer: tooBig });
  await expect(page.getByTestId("error-message")).toContainText(
    `tall.npy: header field shape: (1025, 1) is above the limits (1024 rows, 65536 tokens, ${MAX_CELLS} cells)`,
  );

  // First run: the progress names the step and the time; Cancel stops it. The run can be over
  // within a second of its progress line showing, too soon for a click from here: the page clicks
  // Cancel itself as soon as it shows, and keeps the progress line it read then.
  await page.evaluate(() => {
    const w = window as unknown as { phaseAtCancel: Promise<string> };
    w.phaseAtCancel = new Promise((resolve) => {
      const observer = new MutationObserver(() => {
        const cancel = document.querySelector<HTMLButtonElement>('[data-testid="cancel-run"]');
        if (!cancel) return;
        observer.disconnect();
        resolve(document.querySelector('[data-testid="run-phase"]')?.textContent ?? "");
        cancel.click();
      });
      observer.observe(document.body, { subtree: true, childList: true });
    });
  });
  await input.setInputFiles(file);
  // REINFORCE++ is showing: the page asks whether the table is KL or rewards.
  await page.getByTestId("import-choice-kl").click();
  const phase = await page.evaluate(() => (window as unknown as { phaseAtCancel: Promise<string> }).phaseAtCancel);
  expect(phase).toMatch(/^(Running: .+|Starting the run), \d+\.\d s$/);
  await expect(page.getByTestId("run-behind")).toContainText("Run cancelled.");
  await expect(page.getByTestId("results-behind")).toContainText("Previous batch: the newest run was cancelled");
  await expect(page.getByTestId("max-abs-error")).toHaveText(before ?? "");
  await expect(results).toHaveAttribute("data-run", "1");
  await expect(results).toHaveAttribute("aria-busy", "false");
  await page.screenshot({ path: "/tmp/bigbatch/cancelled.png" });
  // The cancel ended the worker that kept the result shown: a narrower window still gets a picture
  // of it pooled for the new width (one bin per device pixel at most), not the old one stretched.
  const canvases = results.locator(".error-heatmap-canvases");
  const binsX = async () => Number((await canvases.getAttribute("data-bins"))?.split("×")[0]);
  const wide = await binsX();
  await page.setViewportSize({ width: 390, height: 900 });
  await expect
    .poll(async () => (await binsX()) <= (await canvases.evaluate((e) => e.clientWidth * devicePixelRatio)))
    .toBe(true);
  expect(await binsX()).toBeLessThan(wide);
  await page.setViewportSize({ width: 1280, height: 720 });

  // Second run of the same batch: it completes, and the notes go.
  const started = Date.now();
  await page.getByTestId("rerun").click();
  await expect(page.getByTestId("cancel-run")).toBeVisible();
  await expect(results).toHaveAttribute("data-run", "2", slow);
  await expect(results).toHaveAttribute("aria-busy", "false", slow);
  const millis = Date.now() - started;
  await expect(page.getByTestId("run-behind")).toHaveCount(0);
  await expect(page.getByTestId("results-behind")).toHaveCount(0);
  expect(Number(await page.getByTestId("max-abs-error").textContent())).toBeGreaterThanOrEqual(0);
  await expect(page.getByTestId("backend")).toHaveText(BACKEND);
  await page.screenshot({ path: "/tmp/bigbatch/done.png" });
  const longest = await page.evaluate(() => (window as unknown as { longest: number }).longest);
  console.log(
    `${BACKEND}: ${ROWS} × ${TOKENS} run in ${millis} ms after Run again; longest main-thread task ${Math.round(longest)} ms`,
  );
  expect(problems).toEqual([]);
});
