import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { VIEWS } from "../src/ui/urlState";
import { expect, test } from "./pageProblems";
import { VIEW_PAGES, type ViewPage } from "./viewPages";

/**
 * Accessibility of every view, in the state a user works in (a result on screen, a replay at its
 * last step, a finished conformance run): axe's WCAG 2.1 A/AA rules with no serious or critical
 * violation, and every control reachable by Tab with an accessible name.
 */
// The conformance view with its debug buttons, so that they are checked too.
const OPEN: Record<(typeof VIEWS)[number], ViewPage> = {
  ...VIEW_PAGES,
  conformance: { ...VIEW_PAGES.conformance, query: `${VIEW_PAGES.conformance.query}&debug` },
};

/** A violation as one line a developer can act on: rule, impact, and the first few elements. */
function describe(v: { id: string; impact?: string | null; help: string; nodes: { target: unknown[] }[] }): string {
  const where = v.nodes.slice(0, 4).map((n) => n.target.join(" "));
  return `${v.impact} ${v.id}: ${v.help} (${v.nodes.length}× e.g. ${where.join(" | ")})`;
}

interface TabStop {
  tag: string;
  name: string;
  id: string;
}

/**
 * What Tab reaches, in order: each element's tag, role and accessible name (from the browser's own
 * tree). The presses go to the browser in batches through the DevTools protocol, which handles them
 * in order, instead of one round trip per press and another per look (hundreds of stops on a view);
 * a keyup listener records where each press landed.
 */
async function tabStops(page: Page, max: number): Promise<TabStop[]> {
  await page.locator("body").focus();
  await page.evaluate(() => {
    const landed: (TabStop | null)[] = [];
    (window as unknown as { tabLanded: (TabStop | null)[] }).tabLanded = landed;
    const record = (event: KeyboardEvent) => {
      if (event.key !== "Tab") return;
      const el = document.activeElement as HTMLElement | null;
      if (!el || el === document.body) {
        landed.push(null);
        return;
      }
      const labelled = el.getAttribute("aria-labelledby");
      const byId = labelled
        ?.split(/\s+/)
        .map((id) => document.getElementById(id)?.textContent ?? "")
        .join(" ");
      const input = el as HTMLInputElement;
      const labels = input.labels ? Array.from(input.labels, (l) => l.textContent ?? "").join(" ") : "";
      const name =
        el.getAttribute("aria-label") ||
        byId ||
        labels ||
        (el.tagName === "INPUT" ? "" : el.textContent) ||
        el.getAttribute("title") ||
        "";
      const path = `${el.tagName.toLowerCase()}${el.dataset.testid ? `[data-testid=${el.dataset.testid}]` : ""}${el.className && typeof el.className === "string" ? `.${el.className.split(" ")[0]}` : ""}`;
      landed.push({ tag: el.tagName, name: name.trim(), id: path });
    };
    window.addEventListener("keyup", record, { capture: true });
  });
  const cdp = await page.context().newCDPSession(page);
  const tab = { key: "Tab", code: "Tab", windowsVirtualKeyCode: 9 };
  const stops: TabStop[] = [];
  try {
    for (let pressed = 0; pressed < max; ) {
      const batch = Math.min(50, max - pressed);
      const sent: Promise<unknown>[] = [];
      for (let k = 0; k < batch; k++) {
        sent.push(cdp.send("Input.dispatchKeyEvent", { type: "rawKeyDown", ...tab }));
        sent.push(cdp.send("Input.dispatchKeyEvent", { type: "keyUp", ...tab }));
      }
      await Promise.all(sent);
      pressed += batch;
      const landed = await page.evaluate(() => (window as unknown as { tabLanded: (TabStop | null)[] }).tabLanded);
      stops.length = 0;
      for (const stop of landed.slice(0, max)) {
        if (!stop) return stops; // focus left the page
        if (stops.length > 0 && stops[0].id === stop.id && stops[0].name === stop.name) return stops; // wrapped round
        stops.push(stop);
      }
    }
  } finally {
    await cdp.detach();
  }
  return stops;
}

for (const view of VIEWS) {
  test(`${view}: no serious or critical axe violation; every Tab stop has a name`, async ({ page }) => {
    await page.goto(`/${OPEN[view].query}`);
    await OPEN[view].ready(page);
    const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
    const blocking = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
    expect(blocking.map(describe)).toEqual([]);
    const stops = await tabStops(page, 250);
    expect(stops.length).toBeGreaterThan(3);
    expect(stops.filter((s) => s.name === "").map((s) => s.id)).toEqual([]);
    if (view === "conformance") {
      // Never colour alone: each verdict is written out, not only tinted.
      for (const row of await page.getByTestId("verdict-row").all()) {
        const state = await row.getAttribute("data-state");
        if (state === "pass") await expect(row).toContainText("pass");
        if (state === "fail") await expect(row).toContainText("FAIL");
      }
    }
  });
}
