/** Shared by the conformance specs: opening the view, loading a file, and case files built for a test. */
import { readFileSync } from "node:fs";
import { type Page, test } from "@playwright/test";
import { collectProblems } from "./pageProblems";

export const publicCasesText = readFileSync(new URL("../cases/public_cases.json", import.meta.url), "utf8");

/** Opens the conformance view and collects console errors and page errors (the page's and its worker's). */
export async function openConformance(page: Page, query: string): Promise<string[]> {
  const problems = collectProblems(page);
  await page.goto(`/?view=conformance&${query}`);
  return problems;
}

export async function loadCaseFile(page: Page, name: string, text: string): Promise<void> {
  await page
    .getByTestId("case-file-input")
    .setInputFiles({ name, mimeType: "application/json", buffer: Buffer.from(text) });
}

/**
 * `count` one-token discounted cases (`one_0`, `one_1`, …): the return of one token is its reward.
 * The cases listed in `wrong` expect 1 more than that, so they must fail.
 */
export function oneTokenCases(count: number, wrong: number[] = []): string {
  const cases = Array.from({ length: count }, (_, i) => {
    const reward = Math.fround(Math.sin(i + 1) * 3);
    const expected = wrong.includes(i) ? reward + 1 : reward;
    return {
      name: `one_${i}`,
      kind: "discounted",
      shape: [1, 1],
      params: { discount: 0.99, chunk_size: 128 },
      inputs: { rewards: [reward] },
      expected: { returns: [expected] },
      chunked_float32: { returns: [reward] },
    };
  });
  return JSON.stringify({ meta: { schema_version: 1 }, cases });
}

/**
 * One conformance page, opened at `query`, for every test of the enclosing `test.describe`, which
 * then runs its tests in order (a failure skips the rest). Opening the view and starting its
 * backend cost seconds per page, and on webgpu a new page compiles every shader again; tests that
 * need no fresh page share one. `problems` keeps growing: each test expects it still empty.
 */
export function useConformancePage(query: string): { page: Page; problems: string[] } {
  test.describe.configure({ mode: "serial" });
  const shared = { page: undefined as unknown as Page, problems: [] as string[] };
  test.beforeAll(async ({ browser }) => {
    shared.page = await browser.newPage();
    shared.problems = await openConformance(shared.page, query);
  });
  test.afterAll(async () => {
    await shared.page?.close();
  });
  return shared;
}
