/**
 * The edits bench:ui makes, as a user makes them, each with the input event that starts it (the
 * probe's trigger, probe.ts). Every repeat changes the value (they alternate), so every edit runs.
 */
import type { Page } from "@playwright/test";
import type { Estimator } from "../../src/io/playgroundState";
import type { Trigger } from "./probe";

export interface Edit {
  id: EditId;
  /** As the tables name it. */
  label: string;
  /** Made on a GAE page whatever estimator is asked for (λ exists for GAE only). */
  gaeOnly?: true;
  /** The event that starts it, for repeat `rep`. */
  trigger(rep: number): Trigger;
  /** Done before arming (focusing a control), not timed. */
  prepare?(page: Page): Promise<void>;
  act(page: Page, rep: number, estimator: Estimator): Promise<void>;
}

export const EDIT_IDS = ["gamma-typed", "gamma-slider", "lambda-slider", "chunk-step", "stroke"] as const;
export type EditId = (typeof EDIT_IDS)[number];

const arrow = (rep: number) => (rep % 2 === 0 ? "ArrowRight" : "ArrowLeft");

export const EDITS: Record<EditId, Edit> = {
  "gamma-typed": {
    id: "gamma-typed",
    label: "γ typed + Enter",
    trigger: () => ({ type: "keydown", key: "Enter" }),
    // Off the slider's stops, so that the slider step after it always changes γ.
    act: async (page, rep) => {
      const input = page.getByTestId("gamma-input");
      await input.fill(rep % 2 === 0 ? "0.96" : "0.985");
      await input.press("Enter");
    },
  },
  "gamma-slider": {
    id: "gamma-slider",
    label: "γ slider step",
    trigger: (rep) => ({ type: "keydown", key: arrow(rep) }),
    prepare: (page) => page.getByLabel("γ stop").focus(),
    act: (page, rep) => page.getByLabel("γ stop").press(arrow(rep)),
  },
  "lambda-slider": {
    id: "lambda-slider",
    label: "λ slider step (GAE)",
    gaeOnly: true,
    trigger: (rep) => ({ type: "keydown", key: arrow(rep) }),
    prepare: (page) => page.getByRole("slider", { name: "λ", exact: true }).focus(),
    act: (page, rep) => page.getByRole("slider", { name: "λ", exact: true }).press(arrow(rep)),
  },
  "chunk-step": {
    id: "chunk-step",
    label: "chunk-size step",
    trigger: () => ({ type: "click" }),
    act: (page, rep) =>
      page.getByRole("button", { name: rep % 2 === 0 ? /^Double the chunk size/ : /^Halve the chunk size/ }).click(),
  },
  stroke: {
    id: "stroke",
    label: "stroke in the editor",
    trigger: () => ({ type: "pointerup" }),
    prepare: (page) => page.locator("canvas[data-lane]").first().scrollIntoViewIfNeeded(),
    act: (page, rep, estimator) => stroke(page, rep, estimator),
  },
};

/**
 * A drag across the first lane (the rewards; REINFORCE++ rows are drawn in their KL lane, the
 * reward being the row's outcome), 40 moves a frame apart; the edit is the release (pointerup).
 */
async function stroke(page: Page, rep: number, estimator: Estimator): Promise<void> {
  const lane = page.locator(`canvas[data-lane="${estimator === "reinforce_pp" ? "kl" : "rewards"}"]`);
  const box = await lane.boundingBox();
  if (!box) throw new Error("the lane is not drawn");
  await page.mouse.move(box.x + box.width * 0.1, box.y + box.height * 0.5);
  await page.mouse.down();
  for (let i = 1; i <= 40; i++) {
    const f = i / 40;
    const y = 0.5 - 0.4 * Math.sin((6 + rep) * f);
    await page.mouse.move(box.x + box.width * (0.1 + 0.8 * f), box.y + box.height * y);
    await page.waitForTimeout(16);
  }
  await page.mouse.up();
}

/**
 * Waits until the page has finished with the last edit: the results and, on a GAE or REINFORCE++
 * page, the library conventions (which start once the results are drawn and the page is idle)
 * have shown it, then `quietMs` more for saving the session and the last drawing.
 */
export async function settle(page: Page, conventionsBefore: number | null, quietMs: number): Promise<void> {
  await page.waitForFunction(
    // No named functions in here: tsx would wrap them in a helper the page does not have.
    (before) => {
      const results = document.querySelector('[data-testid="results"]');
      if (results?.getAttribute("aria-busy") !== "false") return false;
      if (before === null) return true;
      const panel = document.querySelector('[data-testid="conventions"]');
      return !panel || (Number(panel.getAttribute("data-run")) > before && panel.getAttribute("aria-busy") === "false");
    },
    conventionsBefore,
    { timeout: 180_000, polling: 100 },
  );
  await page.waitForTimeout(quietMs);
}

/** The conventions panel's count of finished runs (null without the panel). */
export async function conventionRuns(page: Page): Promise<number | null> {
  return page.evaluate(() => {
    const panel = document.querySelector('[data-testid="conventions"]');
    return panel ? Number(panel.getAttribute("data-run")) : null;
  });
}
