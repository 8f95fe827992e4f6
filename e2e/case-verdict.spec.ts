import { readFileSync } from "node:fs";
import { expect, type Page, test } from "@playwright/test";
import { runCount } from "./playgroundPage";

/**
 * The playground's case verdict is the file's: the page's own outputs against the file's
 * `expected`, as `scanlab check` judges them. A file whose expected values are all off by 0.5
 * showed "✓ max abs error within the tolerance" (only the page's chunked-vs-serial error was read).
 */
const publicCases = JSON.parse(readFileSync(new URL("../cases/public_cases.json", import.meta.url), "utf8"));

/** Opens a case file; the verdict is awaited by the caller (the same inputs may not need a new run). */
async function openCaseFile(page: Page, name: string, cases: unknown[]): Promise<void> {
  const buffer = Buffer.from(JSON.stringify({ meta: { schema_version: 1 }, cases }));
  await page.getByTestId("case-file-input").setInputFiles({ name, mimeType: "application/json", buffer });
  await expect(page.getByTestId("case-bar")).toContainText(name);
}

test("a case file whose expected values are all off by 0.5 is not ✓, whatever tolerance it claims", async ({
  page,
}) => {
  await page.goto("/?backend=wasm");
  await expect(page.getByTestId("results")).toHaveAttribute("aria-busy", "false", { timeout: 60_000 });
  const good = publicCases.cases.find((c: { name: string }) => c.name === "disc_d0.99_B3_T1000_C128");
  const before = await runCount(page);
  await openCaseFile(page, "good.json", [good]);
  await expect.poll(() => runCount(page), { timeout: 60_000 }).toBeGreaterThan(before);
  await expect(page.getByTestId("case-verdict")).toHaveText(
    /^✓ checked against the file's expected: every element within the tolerance \(max abs error .*, tolerance there .*\)$/,
  );

  const off = structuredClone(good);
  off.expected.returns = off.expected.returns.map((x: number) => x + 0.5);
  await openCaseFile(page, "off.json", [off]);
  await expect(page.getByTestId("case-verdict")).toHaveText(
    /^▲ checked against the file's expected: worst output: returns\[/,
    { timeout: 60_000 },
  );

  const loose = { ...off, tolerance: { float32: 1e300, float64: 1e300 } };
  await openCaseFile(page, "loose.json", [loose]);
  await expect(page.getByTestId("case-verdict")).toHaveText(/^▲ /, { timeout: 60_000 });
});
