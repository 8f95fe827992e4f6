import { VIEWS } from "../src/ui/urlState";
import { expect, test } from "./pageProblems";
import { VIEW_PAGES, type ViewPage } from "./viewPages";

/**
 * The page works with no network beyond its own origin: no font, script, stylesheet, wasm file or
 * analytics ping from anywhere else, on any view, from the page or from its workers. Every request
 * is listened to (Playwright's request event covers workers and fetches); data: and blob: URLs stay
 * in the page. Each view is opened and made to do its main work, since some files load only then
 * (the wasm binaries, the fonts of the player's formulas, the built-in cases).
 */
const WORK: Record<(typeof VIEWS)[number], ViewPage> = {
  ...VIEW_PAGES,
  player: {
    ...VIEW_PAGES.player,
    ready: async (page) => {
      await VIEW_PAGES.player.ready(page);
      // The formula card typesets with KaTeX, whose fonts load on first use: at the last step every result shows.
      const cell = page.locator('[data-lane="result"][data-row="0"][data-t="3"]');
      await expect(cell).toHaveAttribute("data-state", "value");
      await cell.hover();
      await expect(page.getByTestId("formula-card")).toBeVisible();
    },
  },
};

for (const view of VIEWS) {
  test(`${view}: every request stays on the page's own origin`, async ({ page, baseURL }) => {
    const origin = new URL(baseURL ?? "http://127.0.0.1").origin;
    const foreign: string[] = [];
    const seen: string[] = [];
    page.on("request", (request) => {
      const url = new URL(request.url());
      if (url.protocol === "data:" || url.protocol === "blob:") return;
      seen.push(url.pathname);
      if (url.origin !== origin) foreign.push(request.url());
    });
    await page.goto(`/${WORK[view].query}`);
    await WORK[view].ready(page);
    await page.waitForLoadState("networkidle");
    expect(seen.length).toBeGreaterThan(0); // the listener saw the page's own files
    expect(foreign).toEqual([]);
  });
}
