import { readFileSync } from "node:fs";
import AxeBuilder from "@axe-core/playwright";
import type { Locator, Page } from "@playwright/test";
import { TOUR } from "../src/compute/player/tour";
import { parseGlossary } from "../src/ui/glossary/parseGlossary";
import { VIEWS } from "../src/ui/urlState";
import { expect, test } from "./pageProblems";
import { VIEW_PAGES } from "./viewPages";

/**
 * Every word explained where it stands (issue 29): on every view, at a desk and on a phone, each
 * glossary word on the page (`[data-term]`) opens its definition (`role="tooltip"`, named by the
 * word's aria-describedby) on hover and on focus, inside the window, word for word docs/glossary.md's
 * first paragraph; axe finds nothing serious with a definition open; the glossary page has every word.
 */
const GLOSSARY = parseGlossary(readFileSync(new URL("../docs/glossary.md", import.meta.url), "utf8"));

const VIEWPORTS = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
];

function serious(violations: { id: string; impact?: string | null }[]): string[] {
  return violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id);
}

/** The definition a word names; `[id="…"]`, since React's ids are not CSS identifiers. */
async function tipOf(term: Locator): Promise<Locator> {
  const id = await term.getAttribute("aria-describedby");
  expect(id, "a word names its definition").toBeTruthy();
  return term.page().locator(`[id="${id}"]`);
}

async function expectDefinition(page: Page, term: Locator, width: number): Promise<void> {
  const word = (await term.getAttribute("data-term")) ?? "";
  const entry = GLOSSARY.byWord.get(word);
  expect(entry, `"${word}" is in docs/glossary.md`).toBeTruthy();
  const tip = await tipOf(term);
  await expect(tip).toHaveAttribute("role", "tooltip");
  await expect(tip).toBeVisible();
  await expect(tip.locator(".term-definition")).toHaveText(entry?.definition ?? "");
  await expect(tip.getByRole("link", { name: "More in the glossary" })).toHaveAttribute(
    "href",
    `?view=glossary#${entry?.anchor}`,
  );
  const box = await tip.boundingBox();
  expect(box && box.x >= 0 && box.x + box.width <= width, `"${word}"'s definition fits the window`).toBe(true);
  await page.keyboard.press("Escape");
}

for (const viewport of VIEWPORTS) {
  test.describe(`${viewport.width} px`, () => {
    test.use({ viewport });
    for (const view of VIEWS.filter((v) => v !== "glossary")) {
      test(`${view}: every word opens its glossary definition on hover and on focus`, async ({ page }, info) => {
        test.setTimeout(240_000);
        const open = VIEW_PAGES[view];
        if (view !== "run") await page.goto(`/${open.query}`);
        await open.ready(page);
        // What a first visit folds away has words too (the settings' folds, the context-parallel panel).
        for (const fold of await page
          .locator("[data-fold]:not([open]) > summary, .cp-panel:not([open]) > summary")
          .all()) {
          if (await fold.isVisible()) await fold.click();
        }
        if (view === "home") await expect(page.locator('[data-term="Context parallelism"]')).toBeVisible();
        const terms = page.locator("[data-term]");
        await expect(terms.first(), "the view shows glossary words").toBeAttached();
        const count = await terms.count();
        expect(count, "the view shows glossary words").toBeGreaterThan(0);
        let checked = 0;
        for (let i = 0; i < count; i++) {
          const term = terms.nth(i);
          if (!(await term.isVisible())) continue;
          await term.scrollIntoViewIfNeeded();
          // Half by the pointer, half by the keyboard; the first by both.
          if (i % 2 === 0) {
            await term.hover();
            await expectDefinition(page, term, viewport.width);
            await page.mouse.move(0, 0);
          }
          if (i % 2 === 1 || i === 0) {
            await term.focus();
            await expectDefinition(page, term, viewport.width);
          }
          checked++;
        }
        expect(checked, "words checked").toBeGreaterThan(0);
        info.annotations.push({ type: "words", description: `${checked} of ${count} visible and checked` });

        // One definition open: on screen, and nothing serious for axe.
        const first = terms.first();
        await first.scrollIntoViewIfNeeded();
        await first.focus();
        await expect(await tipOf(first)).toBeVisible();
        await page.screenshot({ path: info.outputPath(`${view}-${viewport.width}.png`) });
        const axe = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
        expect(serious(axe.violations)).toEqual([]);
      });
    }

    test("player's tour: every stop's words open their glossary definitions", async ({ page }, info) => {
      test.setTimeout(240_000);
      await page.goto("/?view=player&tour=1&backend=cpu");
      await expect(page.getByTestId("player-source")).toHaveText(/^Tour · /, { timeout: 30_000 });
      const tour = page.getByTestId("tour-panel");
      let checked = 0;
      for (let n = 0; n < TOUR.length; n++) {
        await expect(tour.locator("h3")).toHaveText(TOUR[n].title);
        const terms = tour.locator("[data-term]");
        const count = await terms.count();
        expect([TOUR[n].title, count > 0]).toEqual([TOUR[n].title, true]);
        for (let i = 0; i < count; i++) {
          const term = terms.nth(i);
          await term.scrollIntoViewIfNeeded();
          await term.hover();
          await expectDefinition(page, term, viewport.width);
          await page.mouse.move(0, 0);
          await term.focus();
          await expectDefinition(page, term, viewport.width);
          checked++;
        }
        if (n === 4) {
          // A carry stop with its first word open: nothing serious for axe.
          await terms.first().focus();
          await expect(await tipOf(terms.first())).toBeVisible();
          await page.screenshot({ path: info.outputPath(`tour-words-${viewport.width}.png`) });
          const axe = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
          expect(serious(axe.violations)).toEqual([]);
          await page.keyboard.press("Escape");
        }
        if (n < TOUR.length - 1) await tour.getByRole("button", { name: "Next", exact: true }).click();
      }
      info.annotations.push({ type: "words", description: `${checked} tour words checked` });
    });

    test("glossary: every word of docs/glossary.md, with its anchor and its definition", async ({ page }, info) => {
      await page.goto("/?view=glossary#carry");
      await VIEW_PAGES.glossary.ready(page);
      const entries = page.locator(".glossary-entry");
      await expect(entries).toHaveCount(GLOSSARY.entries.length);
      for (const entry of GLOSSARY.entries) {
        const section = page.locator(`[id="${entry.anchor}"]`);
        await expect(section).toHaveAttribute("data-word", entry.word);
        await expect(section.locator("p").first()).toHaveText(entry.definition);
      }
      // The address's word is in view, below the bar.
      await expect(page.locator("#carry")).toBeInViewport();
      await page.screenshot({ path: info.outputPath(`glossary-${viewport.width}.png`) });
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(
        0,
      );
      const axe = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
      expect(serious(axe.violations)).toEqual([]);
    });
  });
}

test.describe("on a touch screen", () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  test("a tap opens a word's definition, a second tap closes it, and its link opens the glossary there", async ({
    page,
  }) => {
    await page.goto(`/${VIEW_PAGES.home.query}`);
    await VIEW_PAGES.home.ready(page);
    const term = page.locator('[data-term="Estimator"]');
    await term.scrollIntoViewIfNeeded();
    await term.tap();
    const tip = await tipOf(term);
    await expect(tip).toBeVisible();
    await expect(tip.locator(".term-definition")).toHaveText(GLOSSARY.byWord.get("Estimator")?.definition ?? "");
    await term.tap();
    await expect(tip).toBeHidden();
    await term.tap();
    await tip.getByRole("link", { name: "More in the glossary" }).tap();
    await expect(page).toHaveURL(/\?view=glossary#estimator$/);
    await expect(page.locator("#estimator")).toBeInViewport();
  });
});

test("conformance links to the glossary", async ({ page }) => {
  await page.goto("/?view=conformance&backend=wasm");
  await page.getByTestId("glossary-link").click();
  await expect(page).toHaveURL(/\?view=glossary$/);
  await expect(page.getByRole("link", { name: "Glossary", exact: true })).toHaveAttribute("aria-current", "page");
});
