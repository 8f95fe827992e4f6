import type { Page } from "@playwright/test";
import { scanErrorBound, serialDiscountedReturns } from "../src/core";
import { FIRST_VISIT_STATE } from "../src/io/presets";
import { decodeState, encodeState, linkText } from "../src/io/shareLink";
import { PLOT_LEFT, PLOT_RIGHT } from "../src/ui/charts/plotLayout";
import { docsImage } from "./docsImage";
import { longTasksSince, pageNow, watchLongTasks } from "./longTasks";
import { expect, test } from "./pageProblems";

/**
 * The returns chart's carries (issue 29): "Show carries" splits the row in focus into each chunk's
 * local sum and the part carried in from later chunks; the hover readout's local + carried is its
 * total, and the total is core's float64 serial return within the float64 chunked bound
 * (errorBound.ts). The switch lives in the state (links, `?carries=1`); at 16 × 8192 the longest
 * main-thread task of a toggle is printed (a figure, not asserted: it moves with the machine's load).
 */

/** The first-visit example (3 rows, γ 0.95, C 8) on core's slime-exact scan: no engine to wait for. */
const EXAMPLE = { ...FIRST_VISIT_STATE, precision: "slime-exact" as const };

async function settled(page: Page): Promise<void> {
  const results = page.getByTestId("results");
  await expect.poll(async () => Number(await results.getAttribute("data-run")), { timeout: 90_000 }).toBeGreaterThan(0);
  await expect(results).toHaveAttribute("aria-busy", "false", { timeout: 90_000 });
}

/** Puts the pointer on token t of the returns chart (a row of `length` tokens). */
async function hoverToken(page: Page, t: number, length: number): Promise<void> {
  const plot = page.locator(".returns-chart .scan-chart-plot");
  const box = await plot.boundingBox();
  if (!box) throw new Error("the returns chart is not on screen");
  const x = PLOT_LEFT + ((t + 0.5) / length) * (box.width - PLOT_LEFT - PLOT_RIGHT);
  await plot.hover({ position: { x, y: box.height / 2 } });
  await expect(page.locator(".returns-chart .scan-chart-readout").first()).toContainText(`t ${t} ·`);
}

/** The readout's three figures, as the numbers they name (each is the float64's shortest decimal). */
async function readSplit(page: Page) {
  const read = async (id: string) => Number(await page.getByTestId(id).textContent());
  return {
    local: await read("readout-local"),
    carried: await read("readout-carried"),
    total: await read("readout-total"),
  };
}

/** core's float64 serial return of a first-visit row, and its float64 chunked bound, at token t. */
function truthAt(row: number, t: number) {
  const rewards = Float64Array.from(EXAMPLE.data.source === "inline" ? (EXAMPLE.data.rows[row].rewards ?? []) : []);
  const cols = rewards.length;
  const serial = serialDiscountedReturns({ rows: 1, cols, data: rewards }, EXAMPLE.gamma).data;
  const bound = scanErrorBound({ magnitudes: rewards.map(Math.abs) }, EXAMPLE.gamma, {
    precision: "float64",
    algorithm: "chunked",
    chunkSize: EXAMPLE.chunkSize,
    inputRoundings: 0,
  });
  return { serial: serial[t], bound: bound[t] };
}

test("Show carries: bands for the row in focus, and local + carried = total = serial float64 within its bound", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`/#s=${encodeState(EXAMPLE)}`);
  await settled(page);
  const toggle = page.getByTestId("returns-carries");
  await expect(toggle).not.toBeChecked();
  await expect(page.getByTestId("carry-bands")).toHaveCount(0);
  await hoverToken(page, 18, 48);
  await expect(page.getByTestId("readout-total")).toHaveCount(0);

  await toggle.check();
  await expect(page.getByTestId("carry-bands")).toHaveCount(1);
  const note = page.getByTestId("returns-carries-note");
  await expect(note).toContainText("Row 0");
  await expect(note).toContainText("core's chunked scan in float64 for this row alone (C = 8, γ = 0.95)");
  await expect(note).toContainText("the run's chunked float32 (core float32");
  await expect(page.locator(".returns-chart .chart-legend")).toContainText("carried in from later chunks");

  // Token 18 of row 0 sits in chunk [16, 23]: its own reward at 19 is local, the outcome at 47 comes as carry.
  await hoverToken(page, 18, 48);
  const split = await readSplit(page);
  expect(split.local).toBe(0.95 * 0.5);
  expect(split.carried).toBeGreaterThan(0);
  expect(split.local + split.carried).toBe(split.total);
  const truth = truthAt(0, 18);
  expect(Math.abs(split.total - truth.serial)).toBeLessThanOrEqual(truth.bound);
  // And in a chunk of the last tokens nothing is carried: token 44 of [40, 47].
  await hoverToken(page, 44, 48);
  const last = await readSplit(page);
  expect(last.carried).toBe(0);
  expect(last.local).toBe(last.total);
  expect(Math.abs(last.total - truthAt(0, 44).serial)).toBeLessThanOrEqual(truthAt(0, 44).bound);

  // The switch is part of the state: the page's own address brings it back, once the page has
  // written it there (SAVE_DELAY_MS after the edit, encoded in a worker: a reload before that
  // reloads the address as it was).
  await expect
    .poll(() => {
      const url = new URL(page.url());
      const text = linkText(url.search, url.hash);
      const decoded = text ? decodeState(text) : null;
      return decoded?.ok ? decoded.state.showCarries : null;
    })
    .toBe(true);
  await page.reload();
  await settled(page);
  await expect(page.getByTestId("returns-carries")).toBeChecked();
  await expect(page.getByTestId("carry-bands")).toHaveCount(1);
  await page.getByTestId("returns-carries").uncheck();
  await expect(page.getByTestId("returns-carries-note")).toHaveCount(0);
  await expect(page.getByTestId("carry-bands")).toHaveCount(0);
});

test("the picture in docs/playground.md: the first visit, on the engine, with the carries on", async ({
  page,
}, info) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto("/");
  await settled(page);
  await page.getByTestId("returns-carries").check();
  await expect(page.getByTestId("returns-carries-note")).toContainText("the run's chunked float32 (");
  await hoverToken(page, 18, 48);
  const split = await readSplit(page);
  expect(split.local + split.carried).toBe(split.total);
  await page.screenshot({ path: docsImage(info, "playground-carries.png") });
});

test("?carries=1 opens with the carries on, and the 390 px page fits them", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/?carries=1#s=${encodeState({ ...EXAMPLE, selectedRow: 1 })}`);
  await settled(page);
  await expect(page.getByTestId("returns-carries")).toBeChecked();
  await expect(page.getByTestId("returns-carries-note")).toContainText("Row 1");
  await page.getByTestId("returns-carries").scrollIntoViewIfNeeded();
  await hoverToken(page, 5, 40);
  const split = await readSplit(page);
  expect(split.local + split.carried).toBe(split.total);
  const truth = truthAt(1, 5);
  expect(Math.abs(split.total - truth.serial)).toBeLessThanOrEqual(truth.bound);
  // Nothing of the carries is wider than the phone, and the readout's figures all show (wrapped, not cut).
  // (The page as a whole is judged by layout.spec.ts, on the engine's precision.)
  const right = async (selector: string) => {
    const box = await page.locator(selector).first().boundingBox();
    return box ? box.x + box.width : Number.POSITIVE_INFINITY;
  };
  for (const selector of [".carries-toggle", ".returns-chart", '[data-testid="returns-carries-note"]']) {
    expect([selector, await right(selector)]).toEqual([selector, expect.any(Number)]);
    expect(await right(selector), selector).toBeLessThanOrEqual(390);
  }
  const more = await page.locator(".scan-chart-readout-more").boundingBox();
  const total = await page.getByTestId("readout-total").boundingBox();
  expect(more && total).toBeTruthy();
  if (more && total) {
    expect(total.x + total.width).toBeLessThanOrEqual(more.x + more.width + 0.5);
    expect(total.y + total.height).toBeLessThanOrEqual(more.y + more.height + 0.5);
  }
  // On slime-exact the summary names its backend in words, which once made the page 456 px wide.
  await expect(page.getByTestId("backend")).toContainText("slime's order");
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.locator(".returns-chart").screenshot({ path: "test-results/playground-carries-390.png" });
});

/**
 * Toggles the carries three times (on: the split computed; off; on: the split kept) and says how soon
 * the bands showed and how long the longest main-thread task of each toggle was.
 */
async function toggleFigures(page: Page): Promise<string> {
  const toggle = page.getByTestId("returns-carries");
  // The saved session may have brought them on: the first toggle must compute them.
  await toggle.uncheck();
  // The page's own after-run work (workers warming once it is quiet) is not the toggle's.
  await page.waitForTimeout(2000);
  const figures: string[] = [];
  for (const on of [true, false, true]) {
    const from = await pageNow(page);
    await (on ? toggle.check() : toggle.uncheck());
    await expect(page.getByTestId("carry-bands")).toHaveCount(on ? 1 : 0, { timeout: 30_000 });
    const shown = Math.round((await pageNow(page)) - from);
    const { longest, count } = await longTasksSince(page, from);
    figures.push(`${on ? "on" : "off"} in ${shown} ms, longest task ${longest} ms (${count} over 50 ms)`);
  }
  return figures.join("; ");
}

test("16 × 8192 and 1 × 65536 at C 4096: toggling the carries splits the row in focus only, in short tasks", async ({
  page,
}) => {
  test.setTimeout(300_000);
  await watchLongTasks(page);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(
    "/?estimator=discounted&preset=dense&rows=16&tokens=8192&ragged=0&seed=1&precision=float64&chunk=128",
  );
  await settled(page);
  const big = await toggleFigures(page);
  await expect(page.getByTestId("returns-carries-note")).toContainText("C = 128");
  await page.goto("/?estimator=discounted&preset=dense&rows=1&tokens=65536&seed=1&precision=float64&chunk=4096");
  await settled(page);
  const long = await toggleFigures(page);
  await expect(page.getByTestId("returns-carries-note")).toContainText("C = 4096");
  const report = `16 × 8192, C 128: ${big}. 1 × 65536, C 4096: ${long}`;
  console.log(`carries toggle: ${report}`);
  test.info().annotations.push({ type: "carries toggle", description: report });
});
