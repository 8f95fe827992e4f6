import { readFileSync } from "node:fs";
import { expect, test } from "./pageProblems";
import { openRunFile, variantDump } from "./runPage";

/**
 * A user who does not know the run's settings drops a dump: the page reads them off the dump's numbers,
 * says so, gives a verdict per stage, and names the known bug a failing dump matches.
 */

test("a dump opened with no settings: the settings read off it, a verdict per stage, the bug named, the export", async ({
  page,
}) => {
  await openRunFile(page, variantDump("rpp_kl_unmasked.pt"));
  await expect(page.getByTestId("run-results")).toHaveAttribute("aria-busy", "false", { timeout: 60_000 });
  // Written with reinforce_plus_plus, γ 0.99, kl_coef 0.05: read off the dump, and marked so.
  await expect(page.getByTestId("run-estimator")).toHaveValue("reinforce_plus_plus");
  await expect(page.getByTestId("run-gamma")).toHaveValue("0.99");
  await expect(page.getByTestId("run-kl_coef")).toHaveValue("0.05");
  await expect(page.getByTestId("run-inferred-gamma")).toContainText("read off the dump");
  const stages = page.getByTestId("run-stages");
  await expect(stages.locator('[data-stage="rewards"]')).toHaveAttribute("data-status", "pass");
  await expect(stages.locator('[data-stage="returns"]')).toHaveAttribute("data-status", "fail");
  await expect(page.getByTestId("run-diagnosis")).toContainText("slime PR #1372");
  await expect(page.getByTestId("run-check")).toHaveAttribute("data-passed", "false");
  // The settings read off the dump are not the user's: they stay out of the address.
  expect(new URL(page.url()).searchParams.get("gamma")).toBeNull();

  const [cases] = await Promise.all([page.waitForEvent("download"), page.getByTestId("run-export-cases").click()]);
  const file = JSON.parse(readFileSync((await cases.path()) as string, "utf8"));
  expect(file.cases[0]).toMatchObject({ kind: "slime_dump" });
  expect(file.cases[0].settings).toMatchObject({ advantage_estimator: "reinforce_plus_plus", gamma: 0.99 });
});

test("the correct twin passes; a γ typed wrong fails, says what the dump was written with, and one click undoes it", async ({
  page,
}) => {
  await openRunFile(page, variantDump("rpp_kl_unmasked__twin.pt"));
  await expect(page.getByTestId("run-summary")).toContainText("all 6 within their float32 bounds", { timeout: 60_000 });
  await expect(page.getByTestId("run-check")).toHaveAttribute("data-passed", "true");
  await page.getByTestId("run-gamma").fill("1");
  await expect(page.getByTestId("run-advice")).toContainText("γ = 0.99", { timeout: 60_000 });
  expect(new URL(page.url()).searchParams.get("gamma")).toBe("1");
  await page.getByTestId("run-use-inferred").click();
  await expect(page.getByTestId("run-check")).toHaveAttribute("data-passed", "true", { timeout: 60_000 });
  await expect(page.getByTestId("run-gamma")).toHaveValue("0.99");
});

test("slime's own float32 whitening cancelling: every stored advantage NaN fails, and says why", async ({ page }) => {
  await openRunFile(page, variantDump("whiten_float32_cancellation_1e4.pt"));
  await expect(page.getByTestId("run-check")).toHaveAttribute("data-passed", "false", { timeout: 60_000 });
  await expect(page.getByTestId("run-stages").locator('[data-stage="advantages"]')).toContainText(
    "one-pass whitening cancelled",
  );
  await expect(page.getByTestId("run-summary")).not.toContainText("all 5 within");
});

test("a kl_coef that rounds to infinity in float32 is refused on the page too: nothing passes", async ({ page }) => {
  await openRunFile(page, variantDump("rpp_kl_unmasked__twin.pt"), "&kl_coef=1e300");
  await expect(page.getByTestId("run-summary")).toContainText("rounds to infinity in float32", { timeout: 60_000 });
  await expect(page.getByTestId("run-summary")).not.toContainText("within their float32 bounds");
  await expect(page.getByTestId("run-check")).toHaveAttribute("data-passed", "false");
});

test("on a phone, a failing dump whose gaps span eleven decades keeps the page's width", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  // Its heatmap's colour ramp runs 10⁻¹¹ … 10⁻¹: 420 px of swatches, wider than the phone.
  await openRunFile(page, variantDump("rpp_kl_unmasked.pt"));
  await expect(page.getByTestId("run-check")).toHaveAttribute("data-passed", "false", { timeout: 60_000 });
  await expect(page.getByTestId("run-results")).toHaveAttribute("aria-busy", "false", { timeout: 60_000 });
  await expect(page.locator(".heatmap-ramp")).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, "sideways overflow (px)").toBeLessThanOrEqual(0);
  // The ramp scrolls in its own box: all of it is there, its first tick whole.
  const ramp = await page.locator(".heatmap-ramp").evaluate((e) => ({ scroll: e.scrollWidth, box: e.clientWidth }));
  expect(ramp.scroll).toBeGreaterThan(ramp.box);
});
