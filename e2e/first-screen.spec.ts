import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "./pageProblems";
import { afterRun, runCount, settled } from "./playgroundPage";

/**
 * The playground's first screen as a newcomer meets it (issue 22): a line saying what the page
 * computes, a way into the tour, an example where the chunks show, the summary's figures in words,
 * and an editor hint that steps aside once the user acts.
 */

for (const viewport of [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
]) {
  test.describe(`${viewport.width} px`, () => {
    test.use({ viewport });

    test("a first visit says what the page computes, shows small chunks, and explains the verdict", async ({
      page,
    }) => {
      // A bare address and nothing saved: the first-visit example (the backend is the page's own choice).
      await page.goto("/");
      const intro = page.getByTestId("playground-intro");
      await expect(intro).toContainText("computed as slime does: chunk by chunk");
      await expect(intro).toContainText("float64 serial reference");
      await expect(page.getByTestId("take-tour")).toBeVisible();
      await settled(page);
      await expect(page.getByTestId("estimator-select")).toHaveValue("discounted");
      await expect(page.getByTestId("chunk-size-input")).toHaveValue("8");
      await expect(page.getByTestId("row-select").locator("option")).toHaveCount(3);
      // The line is short: the editor still starts on the first screen.
      const editor = await page.getByTestId("row-editor").boundingBox();
      expect(editor?.y ?? Number.POSITIVE_INFINITY).toBeLessThan(viewport.height - 100);
      // The summary says what its figures mean, on screen.
      const explained = page.getByTestId("summary-explained");
      await expect(explained).toContainText("Verdict: every one of the 120 cells is within its bound.");
      await expect(explained).toContainText("its own float32 error bound");
      await expect(explained).toContainText("Relative error and ulps are shown, not judged");
      await expect(page.getByTestId("cells-over-bound")).toHaveText("0 / 120");
      // Nothing sideways, and nothing serious for axe, with the figures' explanations open.
      await explained.getByText("What each figure means").click();
      await expect(explained.getByText("how many float32 numbers lie between")).toBeVisible();
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(
        0,
      );
      const axe = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
      expect(axe.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id)).toEqual(
        [],
      );
    });
  });
}

test("take the tour, from the keyboard, opens the player on the tour's first stop", async ({ page }) => {
  await page.goto("/?backend=wasm");
  const entry = page.getByTestId("take-tour");
  await entry.focus();
  await expect(entry).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/[?&]view=player&tour=1&backend=wasm$/);
  const tour = page.getByTestId("tour-panel");
  await expect(tour).toContainText("1 · The serial loop");
  await expect(page.getByTestId("player-source")).toHaveText(/^Tour · /, { timeout: 30_000 });
  await expect(page.getByTestId("step-caption")).toContainText("Reverse time");
});

test("the draw hint sits beside the tools, not over the bars, and steps aside once the user acts", async ({ page }) => {
  await page.goto("/?backend=wasm");
  await settled(page);
  const hint = page.getByTestId("draw-hint");
  await expect(hint).toContainText("Drag to draw the KL");
  const box = await hint.boundingBox();
  const lanes = await page.getByTestId("row-editor").boundingBox();
  if (!box || !lanes) throw new Error("the hint or the lanes are not drawn");
  expect(box.y + box.height).toBeLessThanOrEqual(lanes.y);
  // Editing a setting is acting: the hint goes, for this visit.
  const before = await runCount(page);
  await page.getByTestId("gamma-input").fill("0.97");
  await page.getByTestId("gamma-input").press("Enter");
  await expect(hint).toHaveCount(0);
  await expect.poll(() => runCount(page), { timeout: 60_000 }).toBeGreaterThan(before);
  // Loading an example is acting too; a reload (nothing drawn yet) brings the hint back.
  await page.reload();
  await settled(page);
  await expect(hint).toBeVisible();
  await page.getByTestId("examples-menu").click();
  await page.getByTestId("example-gae-terminal").click();
  await expect(hint).toHaveCount(0);
});

test("a drawn stroke puts the hint away when it ends, and for later visits too", async ({ page }) => {
  await page.goto("/?backend=wasm");
  await settled(page);
  const hint = page.getByTestId("draw-hint");
  await expect(hint).toBeVisible();
  const lane = page.locator('canvas[data-lane="kl"]');
  const box = await lane.boundingBox();
  if (!box) throw new Error("the KL lane is not drawn");
  const before = await runCount(page);
  await page.mouse.move(box.x + box.width * 0.1, box.y + box.height * 0.8);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.3, box.y + box.height * 0.2, { steps: 8 });
  // While the stroke lasts the hint stays, so the lanes do not move under the pointer.
  await expect(hint).toBeVisible();
  await page.mouse.up();
  await expect(hint).toHaveCount(0);
  await expect.poll(() => runCount(page), { timeout: 60_000 }).toBeGreaterThan(before);
  await page.reload();
  await settled(page);
  await expect(page.getByTestId("row-editor")).toBeVisible();
  await expect(hint).toHaveCount(0);
});

test("Reset brings back the first-visit example", async ({ page }) => {
  await page.goto("/?backend=wasm");
  await settled(page);
  await expect(page.getByTestId("estimator-select")).toHaveValue("reinforce_pp");
  await afterRun(page, () => page.getByTestId("reset").click());
  await expect(page.getByTestId("estimator-select")).toHaveValue("discounted");
  await expect(page.getByTestId("chunk-size-input")).toHaveValue("8");
  await expect(page.getByTestId("cells-over-bound")).toHaveText("0 / 120");
});
