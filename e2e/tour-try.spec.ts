import AxeBuilder from "@axe-core/playwright";
import { expect, type Locator, type Page, test } from "@playwright/test";
import { PLAYER_EXAMPLES } from "../src/compute/player/source";
import { TOUR, TOUR_EXAMPLE } from "../src/compute/player/tour";
import type { TourNumber } from "../src/compute/player/tourTry";
import { materializeRows } from "../src/io/playgroundProblem";
import type { PlaygroundState } from "../src/io/playgroundState";
import { tourReference } from "../src/testing/tourTryReference";
import { docsImage } from "./docsImage";
import { collectProblems } from "./pageProblems";

/**
 * Every tour stop's one change to try, at a desktop and a phone: the change reruns the scan, the
 * outcome's numbers are core's float64 serial reference of the changed inputs (computed here from
 * those inputs, never from the page), Undo brings back the inputs and the picture, and nothing the
 * stop talks about sits under the sticky bars. Its two screenshots (tour-try-1280.png, tour-try-390.png)
 * go to docs/images with SCANLAB_DOCS_IMAGES=1, else to the test's output folder.
 */
const WIDTHS = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
];
const TOUR_STATE = PLAYER_EXAMPLES.find((e) => e.id === TOUR_EXAMPLE)?.state as PlaygroundState;
/** The stop whose outcome goes into the docs' screenshots and is checked by axe: the carry into chunk 1. */
const SHOWN_STOP = 4;

type Shown = Pick<TourNumber, "quantity" | "which" | "value" | "t" | "chunk" | "k"> & { text: string };

async function shownNumbers(outcome: Locator): Promise<Shown[]> {
  return outcome.getByTestId("tour-number").evaluateAll((elements) =>
    elements.map((e) => {
      const d = (e as HTMLElement).dataset;
      const int = (v?: string) => (v === undefined ? undefined : Number(v));
      return {
        quantity: d.quantity,
        which: d.which,
        value: Number(d.value),
        t: int(d.t),
        chunk: int(d.chunk),
        k: int(d.k),
        text: e.textContent ?? "",
      } as Shown;
    }),
  );
}

/** Every output G_t on the stage, by t (the stage shows them from the combine step on). */
async function outputsOnStage(page: Page): Promise<Float64Array> {
  const cells = await page
    .getByTestId("player-stage")
    .locator('[data-lane="result"][data-state="value"]')
    .evaluateAll((elements) =>
      elements.map((e) => [Number(e.getAttribute("data-t")), Number(e.getAttribute("data-value"))] as const),
    );
  const out = new Float64Array(cells.length).fill(Number.NaN);
  for (const [t, v] of cells) out[t] = v;
  return out;
}

/** The element lies wholly between the sticky top bar and the sticky transport bar. */
async function expectClear(page: Page, element: Locator, what: string): Promise<void> {
  const box = await element.boundingBox();
  const top = await page.locator(".topnav").boundingBox();
  const bar = await page.locator(".transport").boundingBox();
  if (!box || !top || !bar) throw new Error(`${what}: not laid out`);
  expect(box.y, `${what}: top edge under the top bar`).toBeGreaterThanOrEqual(top.y + top.height - 0.5);
  expect(box.y + box.height, `${what}: bottom edge under the transport bar`).toBeLessThanOrEqual(bar.y + 0.5);
}

async function inputs(page: Page): Promise<string[]> {
  return Promise.all(
    ["player-gamma", "player-chunk-size", "player-length"].map((id) => page.getByTestId(id).inputValue()),
  );
}

async function blockingAxe(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(" | ")})`);
}

for (const size of WIDTHS) {
  test.describe(`${size.width} px`, () => {
    test.use({ viewport: size, reducedMotion: "reduce" });

    test("every stop's try reruns the scan, its numbers are the serial reference's, Undo restores", async ({
      page,
    }, testInfo) => {
      // Eighteen reruns of the scan (a try and an Undo per stop) on a shared 2-core machine.
      test.setTimeout(240_000);
      const problems = collectProblems(page);
      await page.goto("/?view=player&tour=1&backend=cpu");
      await expect(page.getByTestId("player-source")).toHaveText("Tour · 1 row × 14 tokens, C = 4", {
        timeout: 30_000,
      });
      const tour = page.getByTestId("tour-panel");
      const caption = page.getByTestId("step-caption");
      const original = await inputs(page);
      for (let n = 0; n < TOUR.length; n++) {
        const stop = TOUR[n];
        await expect(tour.locator("h3")).toHaveText(stop.title);
        await expect(caption).toContainText(stop.shows);
        // What the stop talks about is in view as it opens: the step's caption, and on a desktop the
        // whole stop and the serial loop's panel (on a phone the stop follows the stage and caption).
        await expectClear(page, caption, `${stop.title}: the step caption`);
        if (size.width > 900) {
          await expectClear(page, tour, `${stop.title}: the tour stop`);
          if (stop.highlights.includes("serial-panel"))
            await expectClear(page, page.locator(".serial-panel"), `${stop.title}: the serial loop`);
        }
        const captionBefore = await caption.textContent();
        const positionBefore = await page.getByTestId("player-position").textContent();
        const outputsBefore = n === TOUR.length - 1 ? await outputsOnStage(page) : undefined;

        await tour.getByTestId("tour-try").click();
        const outcome = tour.getByTestId("tour-outcome");
        await expect(outcome).toBeVisible({ timeout: 30_000 });
        await expect(page.getByTestId("player-source")).toHaveText(/^Edited · /);
        const after = stop.try.change(TOUR_STATE);
        // The change went into the player's own inputs.
        expect(await inputs(page)).toEqual([
          String(after.gamma),
          String(after.chunkSize),
          String(materializeRows(after)[0].length),
        ]);
        if (stop.try.field === "rewards") {
          // The stage's input lane holds the changed rewards.
          const rewards = materializeRows(after)[0].rewards ?? [];
          const lane = await page
            .getByTestId("player-stage")
            .locator('[data-lane="input"][data-state="value"]')
            .evaluateAll((elements) =>
              elements.map((e) => [Number(e.getAttribute("data-t")), Number(e.getAttribute("data-value"))] as const),
            );
          for (const [t, v] of lane) expect(v, `r_${t}`).toBe(Math.fround(rewards[t]));
        }

        // Every quoted number against core's float64 serial reference of the inputs it was read from.
        const numbers = await shownNumbers(outcome);
        expect(
          numbers.some((x) => x.which === "after"),
          stop.title,
        ).toBe(true);
        for (const x of numbers) {
          const ref = tourReference(x.which === "before" ? TOUR_STATE : after);
          const outputs =
            x.quantity !== "max-error" ? [] : x.which === "before" ? (outputsBefore ?? []) : await outputsOnStage(page);
          const expected =
            x.quantity !== "max-error"
              ? ref.expected(x)
              : outputs.length === ref.T && !Array.from(outputs).some(Number.isNaN)
                ? { value: ref.maxError(outputs), tolerance: 0, what: "largest |error| of the outputs on the stage" }
                : // A phone folds the stage to one chunk: there the largest |error| is only held to the bounds.
                  { value: 0, tolerance: Math.max(...ref.bound), what: "largest |error|, at most the largest bound" };
          expect(Math.abs(x.value - expected.value), `${stop.title}: ${x.which} ${expected.what}`).toBeLessThanOrEqual(
            expected.tolerance,
          );
          // The short form on screen is the same number (3 significant digits).
          expect(Math.abs(Number(x.text) - x.value), `${stop.title}: "${x.text}"`).toBeLessThanOrEqual(
            Math.abs(x.value) * 5e-3,
          );
        }
        await expectClear(page, outcome, `${stop.title}: the outcome`);
        await expectClear(page, tour.getByTestId("tour-undo"), `${stop.title}: Undo`);
        if (size.width > 900) await expectClear(page, tour, `${stop.title}: the tour stop with its outcome`);
        if (n === SHOWN_STOP) {
          expect(await blockingAxe(page), "axe, serious or critical").toEqual([]);
          await page.screenshot({ path: docsImage(testInfo, `tour-try-${size.width}.png`) });
        }

        // Undo: the inputs, the source, the step and its words are the ones before the try.
        await tour.getByTestId("tour-undo").click();
        await expect(page.getByTestId("player-source")).toHaveText("Tour · 1 row × 14 tokens, C = 4", {
          timeout: 30_000,
        });
        await expect(tour.getByTestId("tour-try")).toBeFocused();
        await expect(outcome).toHaveCount(0);
        expect(await inputs(page)).toEqual(original);
        await expect(caption).toHaveText(captionBefore ?? "");
        await expect(page.getByTestId("player-position")).toHaveText(positionBefore ?? "");
        if (n < TOUR.length - 1) await tour.getByRole("button", { name: "Next", exact: true }).click();
      }
      expect(problems, "console errors").toEqual([]);
    });
  });
}

test("another stop undoes the try first: every stop talks about the tour's own inputs", async ({ page }) => {
  const problems = collectProblems(page);
  await page.goto("/?view=player&tour=1&backend=cpu");
  await expect(page.getByTestId("player-source")).toHaveText(/^Tour · /, { timeout: 30_000 });
  const tour = page.getByTestId("tour-panel");
  await tour.getByTestId("tour-try").click();
  await expect(tour.getByTestId("tour-outcome")).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId("player-gamma")).toHaveValue("1");
  await tour.getByRole("button", { name: "Next", exact: true }).click();
  await expect(tour.locator("h3")).toHaveText(TOUR[1].title);
  await expect(page.getByTestId("player-source")).toHaveText("Tour · 1 row × 14 tokens, C = 4", { timeout: 30_000 });
  await expect(page.getByTestId("player-gamma")).toHaveValue("0.9");
  await expect(page.getByTestId("step-caption")).toContainText(TOUR[1].shows);
  await expect(tour.getByTestId("tour-try")).toBeVisible();
  expect(problems, "console errors").toEqual([]);
});
