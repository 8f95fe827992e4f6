import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, test } from "@playwright/test";
import { VIEWS } from "../src/ui/urlState";
import { collectProblems } from "./pageProblems";
import { VIEW_PAGES } from "./viewPages";

/**
 * Every view at a phone (390 × 844), a small laptop (1024 × 768) and a desktop (1280 × 800): the page
 * never scrolls sideways, no formula card is wider than its box, and axe reports no serious or
 * critical violation. SCANLAB_SHOTS=<folder> also saves a full-page screenshot of each, to look at.
 */
const WIDTHS = [
  { width: 390, height: 844 },
  { width: 1024, height: 768 },
  { width: 1280, height: 800 },
];

const OPEN = VIEW_PAGES;

const shots = process.env.SCANLAB_SHOTS;

async function shoot(page: Page, name: string): Promise<void> {
  if (!shots) return;
  // The first screen as a user sees it (sticky bars where they stick), and the whole page.
  await page.screenshot({ path: `${shots}/${name}-screen.png` });
  await page.screenshot({ path: `${shots}/${name}.png`, fullPage: true });
}

/** How far the page reaches past the window's right edge (0 when nothing scrolls sideways). */
async function overflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}

/** Elements of the selector whose content is wider than their box (a formula running out of its card). */
async function overflowing(page: Page, selector: string): Promise<string[]> {
  return page
    .locator(selector)
    .evaluateAll((elements) =>
      elements
        .filter((e) => e.scrollWidth > e.clientWidth + 1)
        .map((e) => `${e.className}: ${e.scrollWidth} > ${e.clientWidth}`),
    );
}

async function blockingAxe(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map(
      (v) =>
        `${v.impact} ${v.id}: ${v.help} (${v.nodes
          .map((n) => n.target.join(" "))
          .slice(0, 4)
          .join(" | ")})`,
    );
}

for (const size of WIDTHS) {
  test.describe(`${size.width} px`, () => {
    // Reduced motion: the player cuts instead of animating and fades are off, so axe and the widths
    // see a settled page, not a frame in the middle of a 300 ms transition.
    test.use({ viewport: size, reducedMotion: "reduce" });

    for (const view of VIEWS) {
      test(`${view}: fits the width, and axe finds nothing serious`, async ({ page }) => {
        const problems = collectProblems(page);
        await page.goto(`/${OPEN[view].query}`);
        await OPEN[view].ready(page);
        await shoot(page, `${view}-${size.width}`);
        expect(await overflow(page), "sideways overflow (px)").toBeLessThanOrEqual(0);
        expect(await blockingAxe(page), "axe, serious or critical").toEqual([]);
        if (size.width === 390) {
          // The collapsed top bar opens into a menu that fits too.
          await page.getByRole("button", { name: "Menu", exact: true }).click();
          await expect(page.getByRole("navigation", { name: "Views" })).toBeVisible();
          await shoot(page, `${view}-${size.width}-menu`);
          expect(await overflow(page), "sideways overflow (px)").toBeLessThanOrEqual(0);
          expect(await blockingAxe(page), "axe, serious or critical").toEqual([]);
        }
        expect(problems, "console errors").toEqual([]);
      });
    }

    test("player: every example fits at every phase", async ({ page }) => {
      const problems = collectProblems(page);
      await page.goto(`/${OPEN.player.query}`);
      await OPEN.player.ready(page);
      for (const id of ["gae", "reinforce", "long", "returns"]) {
        await page.locator(".player-source select").first().selectOption(id);
        await expect(page.getByTestId("player-position")).toHaveText(/^1 \/ \d+$/, { timeout: 30_000 });
        await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
        // Each phase's first step (Shift+→), where a new panel appears under the stage.
        for (let n = 0; n < 12; n++) {
          expect(
            await overflow(page),
            `${id}, ${await page.getByTestId("player-position").textContent()}`,
          ).toBeLessThanOrEqual(0);
          await page.keyboard.press("Shift+ArrowRight");
        }
        await page.keyboard.press("End");
        expect(await overflow(page), `${id}, last step`).toBeLessThanOrEqual(0);
        await shoot(page, `player-${size.width}-${id}`);
      }
      expect(problems, "console errors").toEqual([]);
    });

    test("player: every tour stop and formula card fits, its stage in view", async ({ page }) => {
      const problems = collectProblems(page);
      await page.goto(`/${OPEN.player.query}`);
      await OPEN.player.ready(page);
      await page.getByRole("button", { name: "Tour", exact: true }).click();
      const tour = page.getByTestId("tour-panel");
      for (let stop = 1; ; stop++) {
        await expect(tour.locator("h3")).toHaveText(new RegExp(`^${stop} · `));
        await shoot(page, `player-${size.width}-tour-${stop}`);
        expect(await overflow(page), "sideways overflow (px)").toBeLessThanOrEqual(0);
        // The stage the stop talks about is on screen, in its top half, after the click on Next (on a
        // phone the stage comes first and each stop scrolls it back under the top bar).
        const stageTop = await page.locator(".stage-scroll").evaluate((e) => e.getBoundingClientRect().top);
        expect(stageTop).toBeGreaterThanOrEqual(0);
        expect(stageTop).toBeLessThan(size.height / 2);
        const next = tour.getByRole("button", { name: "Next", exact: true });
        if ((await next.count()) === 0) break;
        await next.click();
      }
      expect(await blockingAxe(page), "axe, serious or critical").toEqual([]);
      // The tour's last stop is the comparison: every output is final; open cards on several positions.
      const outputs = page.getByTestId("player-stage").locator('[data-lane="result"][data-state="value"]');
      const count = await outputs.count();
      for (const n of [0, Math.floor(count / 2), count - 1]) {
        await outputs.nth(n).focus();
        await expect(page.getByTestId("formula-card")).toBeVisible();
        expect(await overflowing(page, ".formula-card, .formula-card .tex")).toEqual([]);
        expect(await overflow(page), "sideways overflow (px)").toBeLessThanOrEqual(0);
      }
      await shoot(page, `player-${size.width}-card`);
      // Local sums written out term by term, and input and serial cells, on C = 8 (the sums that ran
      // 400–900 px out of their card from k = 3 on): hover the cells of the chunk drawn at the end.
      await page.locator(".player-source select").first().selectOption("returns");
      await expect(page.getByTestId("player-source")).toHaveText(/^Returns · /, { timeout: 30_000 });
      // End goes to the player, not to the example menu that still has the focus.
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      await page.keyboard.press("End");
      await expect(page.getByTestId("player-position")).toHaveText(/^(\d+) \/ \1$/);
      for (const lane of ["local", "input", "serial"]) {
        const cells = page.getByTestId("player-stage").locator(`[data-lane="${lane}"][data-state="value"]`);
        const n = await cells.count();
        for (const k of [n - 1, n - 4, 0]) {
          await cells.nth(k).hover({ timeout: 10_000 });
          await expect(page.getByTestId("formula-card")).toBeVisible();
          expect(await overflowing(page, ".formula-card, .formula-card .tex")).toEqual([]);
        }
      }
      await shoot(page, `player-${size.width}-local-card`);
      expect(await overflow(page), "sideways overflow (px)").toBeLessThanOrEqual(0);
      expect(problems, "console errors").toEqual([]);
    });
  });
}
