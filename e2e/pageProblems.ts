import { test as base, expect, type Page } from "@playwright/test";

/**
 * Collects every console error and uncaught error of the page and of its workers, as they happen.
 * A spec with pages of its own (a second tab, a fresh context) expects each page's list to be empty.
 */
export function collectProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(message.text());
  });
  page.on("pageerror", (error) => problems.push(error.message));
  page.on("worker", (worker) => {
    worker.on("console", (message) => {
      if (message.type() === "error") problems.push(`worker: ${message.text()}`);
    });
  });
  return problems;
}

/**
 * Playwright's `test` with the page watched from its first request: a test passes only if its page
 * and the page's workers logged no error and threw nothing, to its last step. A test that must see
 * the list earlier asks for the `problems` fixture.
 */
export const test = base.extend<{ problems: string[] }>({
  problems: [
    async ({ page }, use) => {
      const problems = collectProblems(page);
      await use(problems);
      expect(problems, "console errors and uncaught errors of the page and its workers").toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };
