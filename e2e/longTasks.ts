import type { Page } from "@playwright/test";

/**
 * The page's main-thread tasks over 50 ms (PerformanceObserver "longtask"), collected from the first
 * script on: a spec reports them (never asserts on them: speed is measured in benches).
 */
export async function watchLongTasks(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const tasks: { start: number; duration: number }[] = [];
    (window as unknown as { __longTasks: typeof tasks }).__longTasks = tasks;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) tasks.push({ start: entry.startTime, duration: entry.duration });
    }).observe({ type: "longtask", buffered: true });
  });
}

/** Now, on the page's clock: the start of a span to ask about. */
export function pageNow(page: Page): Promise<number> {
  return page.evaluate(() => performance.now());
}

/** The longest task (ms, 0 when none was over 50 ms) and how many there were, since `from`. */
export async function longTasksSince(page: Page, from: number): Promise<{ longest: number; count: number }> {
  // The observer reports a task after it ends: give the last one a frame to arrive.
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => setTimeout(done, 50))));
  return page.evaluate((since) => {
    const tasks = (window as unknown as { __longTasks: { start: number; duration: number }[] }).__longTasks;
    const after = tasks.filter((t) => t.start >= since);
    return { longest: Math.round(Math.max(0, ...after.map((t) => t.duration))), count: after.length };
  }, from);
}
