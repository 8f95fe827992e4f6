import type { Page } from "@playwright/test";
import { expect, test } from "./pageProblems";

/**
 * The documented wait means what it says: when `results` stops being aria-busy after an edit (and
 * when `data-drawn` grows for core's first redraw at teaching size), every part of the results
 * already shows the new numbers: the returns chart's lines, the error chart's, and the heatmap
 * (read through the readout of a focused cell, which is computed from the picture on screen). The
 * page is read at the very moment the attribute changes, from a MutationObserver, so a part that
 * caught up a few milliseconds later would fail here.
 */
test.describe.configure({ timeout: 180_000 });
const slow = { timeout: 120_000 };

/** Each line as its name and a digest of its path, and the focused heatmap cell's readout. */
type Parts = { returns: string[]; error: string[]; heatmap: string };

function readParts(page: Page): Promise<Parts> {
  return page.evaluate(() => {
    const results = document.querySelector('[data-testid="results"]') as HTMLElement;
    // Each line's path, as a short digest (FNV-1a) so that a failure prints something readable.
    const paths = (chart: string) =>
      [...results.querySelectorAll(`.${chart} path.plot-line`)].map((p) => {
        let h = 0x811c9dc5;
        for (const c of p.getAttribute("d") ?? "") h = Math.imul(h ^ c.charCodeAt(0), 0x01000193);
        return `${p.getAttribute("data-name")} ${(h >>> 0).toString(16)}`;
      });
    return {
      returns: paths("returns-chart"),
      error: paths("error-chart"),
      heatmap: results.querySelector(".error-heatmap-readout")?.textContent ?? "",
    };
  });
}

/**
 * Arms an observer that reads the parts in the same task as `results` gets a new final result and
 * stops being aria-busy (`busy-clears`), or draws any new result (`drawn-grows`: `data-drawn` grows),
 * counted from now; returns what waits for them.
 */
async function partsWhen(page: Page, which: "busy-clears" | "drawn-grows"): Promise<() => Promise<Parts>> {
  await page.evaluate((which) => {
    const results = document.querySelector('[data-testid="results"]') as HTMLElement;
    const run = Number(results.getAttribute("data-run"));
    const drawn = Number(results.getAttribute("data-drawn"));
    const w = window as unknown as { captured: Record<string, Promise<unknown>> };
    w.captured ??= {};
    w.captured[which] = new Promise((resolve) => {
      const observer = new MutationObserver(() => {
        const ready =
          which === "busy-clears"
            ? Number(results.getAttribute("data-run")) > run && results.getAttribute("aria-busy") === "false"
            : Number(results.getAttribute("data-drawn")) > drawn;
        if (!ready) return;
        observer.disconnect();
        const paths = (chart: string) =>
          [...results.querySelectorAll(`.${chart} path.plot-line`)].map((p) => {
            let h = 0x811c9dc5;
            for (const c of p.getAttribute("d") ?? "") h = Math.imul(h ^ c.charCodeAt(0), 0x01000193);
            return `${p.getAttribute("data-name")} ${(h >>> 0).toString(16)}`;
          });
        resolve({
          returns: paths("returns-chart"),
          error: paths("error-chart"),
          heatmap: results.querySelector(".error-heatmap-readout")?.textContent ?? "",
        });
      });
      observer.observe(results, { attributes: true, attributeFilter: ["aria-busy", "data-drawn", "data-run"] });
    });
  }, which);
  return () =>
    page.evaluate(
      (which) => (window as unknown as { captured: Record<string, Promise<Parts>> }).captured[which],
      which,
    );
}

async function openAndFocus(page: Page, url: string): Promise<Parts> {
  await page.goto(url);
  const results = page.getByTestId("results");
  await expect(results).toHaveAttribute("data-run", /[1-9]/, slow);
  await expect(results).toHaveAttribute("aria-busy", "false", slow);
  // A focused heatmap cell keeps its readout live: it shows that cell of the picture on screen.
  await results.locator("canvas.error-heatmap-overlay").focus();
  await expect(results.locator(".error-heatmap-readout")).toHaveText(/^row \d+ · t \d+ · /);
  return readParts(page);
}

function expectAllNew(before: Parts, after: Parts): void {
  expect(after.returns.length).toBeGreaterThan(0);
  expect(after.returns).not.toEqual(before.returns);
  expect(after.error).not.toEqual(before.error);
  expect(after.heatmap).not.toBe(before.heatmap);
}

for (const backend of ["wasm", "webgpu"]) {
  test(`16 × 8192 on ${backend}: when results stop being busy after a γ edit, the charts and the heatmap show it`, async ({
    page,
  }) => {
    const before = await openAndFocus(page, `/?preset=dense&rows=16&tokens=8192&seed=3&gamma=0.99&backend=${backend}`);
    const captured = await partsWhen(page, "busy-clears");
    const gamma = page.getByTestId("gamma-input");
    await gamma.fill("0.97");
    await gamma.press("Enter");
    expectAllNew(before, await captured());
  });
}

test("16 × 8192: after a chunk-size step, which keeps the serial reference, the heatmap shows the new chunks when busy clears", async ({
  page,
}) => {
  const before = await openAndFocus(page, "/?preset=dense&rows=16&tokens=8192&seed=3&gamma=0.99&backend=wasm");
  const captured = await partsWhen(page, "busy-clears");
  await page.getByRole("button", { name: /^Double the chunk size/ }).click();
  // The focused cell's readout names its chunk, which the new chunk size renumbers.
  const chunk = (readout: string) => /· chunk (\d+) ·/.exec(readout)?.[1];
  expect(chunk((await captured()).heatmap)).not.toBe(chunk(before.heatmap));
});

test("teaching size: core's first redraw already shows the edit in every part, and so does the engine's result", async ({
  page,
}) => {
  const before = await openAndFocus(page, "/?preset=dense&rows=4&tokens=300&seed=3&gamma=0.99&backend=wasm");
  const first = await partsWhen(page, "drawn-grows");
  const gamma = page.getByTestId("gamma-input");
  await gamma.fill("0.97");
  const final = await partsWhen(page, "busy-clears");
  await gamma.press("Enter");
  expectAllNew(before, await first());
  expectAllNew(before, await final());
});
