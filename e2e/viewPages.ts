import { expect, type Page } from "@playwright/test";
import type { VIEWS } from "../src/ui/urlState";
import { openRunDump } from "./runPage";

export interface ViewPage {
  query: string;
  /** Waits for the view in the state a user works in (a result on screen, a replay at its last step, a finished run). */
  ready(page: Page): Promise<void>;
}

/** How each view is opened and made to do its main work, for the specs that visit every view. */
export const VIEW_PAGES: Record<(typeof VIEWS)[number], ViewPage> = {
  home: {
    query: "?backend=wasm",
    ready: async (page) => {
      await expect(page.getByTestId("results")).toHaveAttribute("data-run", /^[1-9]/, { timeout: 60_000 });
      await expect(page.getByTestId("results")).toHaveAttribute("aria-busy", "false", { timeout: 60_000 });
    },
  },
  conformance: {
    query: "?view=conformance&backend=wasm",
    ready: async (page) => {
      await page.getByTestId("load-public-cases").click();
      await expect(page.getByTestId("conformance-summary")).toHaveText(/^\d+ passed, 0 failed$/, { timeout: 90_000 });
    },
  },
  player: {
    query: "?view=player&backend=wasm",
    ready: async (page) => {
      await expect(page.getByTestId("player-position")).toHaveText(/^1 \/ \d+$/, { timeout: 30_000 });
      await page.keyboard.press("End");
      // A cell hovered before the last step is drawn has no value and opens no card.
      await expect(page.getByTestId("player-position")).toHaveText(/^(\d+) \/ \1$/);
    },
  },
  bench: {
    query: "?view=bench",
    ready: async (page) => {
      await expect(page.locator("main, .app").first()).toBeVisible();
    },
  },
  run: { query: "?view=run", ready: openRunDump },
  glossary: {
    query: "?view=glossary",
    ready: async (page) => {
      await expect(page.getByTestId("glossary")).toBeVisible();
    },
  },
};
