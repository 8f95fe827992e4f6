import { expect, test } from "./pageProblems";
import { openPpoDump, openRunDump, openRunFile, sharedDump } from "./runPage";

/**
 * Your run: slime's own debug dumps opened in the page, replayed against the float64 reference with
 * the settings they were written with, every sample within its float32 bound; a hostile pickle
 * refused by the name of its global with the last result kept; the dump back after a reload.
 */
test("slime's REINFORCE++ train dump: every sample within bound, a hostile pickle refused by name, the dump back after a reload", async ({
  page,
}) => {
  await openRunDump(page);
  const table = page.getByTestId("run-samples");
  await expect(table.locator("tbody tr")).toHaveCount(8);
  await expect(table.locator('tbody tr[data-passed="true"]')).toHaveCount(8);
  const summary = await page.getByTestId("run-summary").textContent();

  // A pickle that would run os.system if Python loaded it: refused by the name of its global, nothing runs.
  await page.getByTestId("run-file-input").setInputFiles(sharedDump("evil_reduce.pt"));
  await expect(page.getByTestId("error-message")).toContainText("posix.system");
  await expect(page.getByTestId("run-summary")).toHaveText(summary ?? "");

  // The dump is the user's: kept in this browser; the link holds only the settings.
  expect(new URL(page.url()).searchParams.get("advantage_estimator")).toBe("reinforce_plus_plus");
  await page.reload();
  await expect(page.getByTestId("run-summary")).toHaveText(summary ?? "", { timeout: 60_000 });
});

test("slime's ppo dump: wrong settings put the samples over their bound first, and the search finds the right ones", async ({
  page,
}) => {
  // Written with --normalize-advantages; asked without it.
  await openPpoDump(page, false);
  await expect(page.getByTestId("run-summary")).toContainText(/\d of 8 within their float32 bounds, \d over/, {
    timeout: 60_000,
  });
  await expect(page.getByTestId("run-samples").locator("tbody tr").first()).toHaveAttribute("data-passed", "false");
  await page.getByTestId("run-search").click();
  await expect(page.getByTestId("run-trials")).toContainText("reproduce the dump", { timeout: 60_000 });
  await expect(page.getByTestId("run-trials")).toContainText("ppo, normalize_advantages true");
  await page.getByTestId("run-normalize_advantages").check();
  await expect(page.getByTestId("run-summary")).toContainText("all 8 within their float32 bounds", { timeout: 60_000 });

  // One sample in the playground: its GAE scan computed there, beside the reference.
  await page.getByTestId("run-open-playground").click();
  await expect(page.getByTestId("results")).toHaveAttribute("aria-busy", "false", { timeout: 90_000 });
  await expect(page.getByTestId("estimator-select")).toHaveValue("gae");
});

test("before a dump is open the settings say they are slime's defaults, and stop saying it once one is", async ({
  page,
}) => {
  await page.goto("/?view=run");
  await expect(page.getByTestId("run-settings-defaults")).toContainText("slime's defaults until a dump is open");
  await openRunFile(page, sharedDump("train_rpp_g099_kl005.pt"));
  await expect(page.getByTestId("run-summary")).toContainText("train dump", { timeout: 60_000 });
  await expect(page.getByTestId("run-settings-defaults")).toHaveCount(0);
});
