import { readFileSync } from "node:fs";
import { expect, type Page, test } from "@playwright/test";
import { unseenConventionFile } from "../src/conformance/conventionTestCases";
import { strategiesFor } from "../src/engine/strategy";
import { loadCaseFile, openConformance } from "./conformance-page";

/**
 * Library-convention cases (slime, OpenRLHF, verl) on the engine in the conformance view: the
 * public file, and a file the page has never seen (built from core's float64 conventions), on
 * webgpu and wasm with every strategy each backend offers.
 */

const publicConventions = readFileSync(new URL("../cases/conventions_public.json", import.meta.url), "utf8");

async function expectAllPassed(page: Page, backend: string, count: number): Promise<void> {
  await expect(page.getByTestId("conformance-summary")).toHaveText(`${count} passed, 0 failed`, { timeout: 220_000 });
  await expect(page.getByTestId("backend")).toHaveText(backend);
  await expect(page.getByTestId("error-message")).toHaveCount(0);
  await expect(page.getByTestId("backend-notice")).toHaveCount(0);
}

// The public cases and, after them, the smaller unseen variant: every scenario, at sizes a software GPU runs in seconds.
const unseenFile = unseenConventionFile(true);
const both = { ...unseenFile, cases: [...JSON.parse(publicConventions).cases, ...unseenFile.cases] };
const bothText = JSON.stringify(both);

for (const backend of ["webgpu", "wasm"]) {
  test(`${backend} offers the strategies the engine runs there`, async ({ page }) => {
    const problems = await openConformance(page, `backend=${backend}`);
    await expect(page.getByTestId("backend")).toHaveText(backend, { timeout: 60_000 });
    const offered = await page
      .getByTestId("strategy-select")
      .locator("option")
      .evaluateAll((options) =>
        options.filter((o) => !(o as HTMLOptionElement).disabled).map((o) => (o as HTMLOptionElement).value),
      );
    expect(offered).toEqual([...strategiesFor(backend)]);
    expect(problems).toEqual([]);
  });

  for (const strategy of strategiesFor(backend)) {
    test(`convention cases pass on ${backend} with the ${strategy} strategy: the public ones and ones never seen`, async ({
      page,
    }) => {
      // SwiftShader compiles a shader for every new tensor shape: minutes on a loaded 2-core machine.
      test.setTimeout(240_000);
      const problems = await openConformance(page, `backend=${backend}&strategy=${strategy}`);
      await loadCaseFile(page, "conventions_public_and_unseen.json", bothText);
      await expectAllPassed(page, backend, both.cases.length);
      await expect(page.getByTestId("strategy-select")).toHaveValue(strategy);
      await expect(page.getByTestId("verdict-table")).toContainText("verl_reinforce_pp_one_token_segments_g1");
      expect(problems).toEqual([]);
    });
  }
}

test("a wrong convention fails: verl's cut returns given slime's carried-through numbers", async ({ page }) => {
  const problems = await openConformance(page, "backend=wasm");
  const file = JSON.parse(publicConventions);
  const slime = file.cases.find((c: { name: string }) => c.name === "slime_rpp_g1_raw");
  const verl = file.cases.find((c: { name: string }) => c.name === "verl_rpp_g1_raw");
  verl.expected.returns = slime.expected.returns;
  file.cases = [verl];
  await loadCaseFile(page, "wrong.json", JSON.stringify(file));
  await expect(page.getByTestId("conformance-summary")).toHaveText("0 passed, 1 failed", { timeout: 60_000 });
  await expect(page.getByTestId("verdict-table")).toContainText("returns[");
  expect(problems).toEqual([]);
});
