import type { Page } from "@playwright/test";

/**
 * Collects every console error and uncaught error of the page and of its workers, as they happen:
 * each spec ends by expecting the list to be empty.
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
