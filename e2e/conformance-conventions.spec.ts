import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { unseenConventionFile } from "../src/conformance/conventionTestCases";
import { strategiesFor } from "../src/names/strategies";
import { loadCaseFile, useConformancePage } from "./conformance-page";

/**
 * Library-convention cases (slime, OpenRLHF, verl) on the engine in the conformance view: the
 * public file, and a file the page has never seen (built from core's float64 conventions), once on
 * webgpu and once on wasm.
 *
 * What runs where, and what covers the rest: the convention code (masks, verl's segmented and
 * compacted scans, whitening) is the same for every strategy and calls the strategy's scan, so
 * each backend runs it once, with the strategy nothing else covers there. The fused kernel runs
 * only on webgpu, so webgpu runs the conventions on fused; wasm runs them per-token. Every
 * convention case on every portable strategy is checked within its bound by the unit tests
 * (src/engine/conventions/runConventionProblem.test.ts, tfjs cpu), and each strategy's scan runs in
 * the browser on each backend in conformance.spec.ts (webgpu: chunked, two-level, per-token),
 * conformance-runs.spec.ts (wasm two-level, cpu), fused.spec.ts (fused) and here.
 */

const publicConventions = readFileSync(new URL("../cases/conventions_public.json", import.meta.url), "utf8");

// The public cases and, after them, the smaller unseen variant: every scenario, at sizes a software GPU runs in seconds.
const unseenFile = unseenConventionFile(true);
const both = { ...unseenFile, cases: [...JSON.parse(publicConventions).cases, ...unseenFile.cases] };
const bothText = JSON.stringify(both);

for (const [backend, strategy] of [
  ["webgpu", "fused"],
  ["wasm", "per-token"],
] as const) {
  test.describe(`conventions on ${backend}`, () => {
    // One page per backend: opening the view and starting the backend cost seconds each time.
    const shared = useConformancePage(`backend=${backend}&strategy=${strategy}`);

    test(`${backend} offers the strategies the engine runs there`, async () => {
      const { page, problems } = shared;
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

    test(`convention cases pass on ${backend} with the ${strategy} strategy: the public ones and ones never seen`, async () => {
      // SwiftShader compiles a shader for every new tensor shape: a minute on a loaded 2-core machine.
      test.setTimeout(240_000);
      const { page, problems } = shared;
      await loadCaseFile(page, "conventions_public_and_unseen.json", bothText);
      await expect(page.getByTestId("conformance-summary")).toHaveText(`${both.cases.length} passed, 0 failed`, {
        timeout: 220_000,
      });
      await expect(page.getByTestId("backend")).toHaveText(backend);
      await expect(page.getByTestId("strategy-select")).toHaveValue(strategy);
      await expect(page.getByTestId("error-message")).toHaveCount(0);
      await expect(page.getByTestId("backend-notice")).toHaveCount(0);
      await expect(page.getByTestId("verdict-table")).toContainText("verl_reinforce_pp_one_token_segments_g1");
      expect(problems).toEqual([]);
    });

    if (backend !== "wasm") return;

    test("a wrong convention fails: verl's cut returns given slime's carried-through numbers", async () => {
      const { page, problems } = shared;
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
  });
}
