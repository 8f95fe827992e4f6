import { expect, type Page, test } from "@playwright/test";
import { loadCaseFile, oneTokenCases, openConformance } from "./conformance-page";

/**
 * Every fault the engine can meet, each recovered from with a notice, the results the user had
 * still on screen, and the next run on the backend below: a worker killed mid-run, the GPU device
 * lost, and a GPU that hangs without losing its device (the watchdog). The conformance view's
 * `?debug` buttons inject them (src/ui/conformance/FaultControls.tsx). WebGPU unavailable is
 * conformance.spec.ts's test, run in a browser launched without it. The crash (on wasm) and the
 * lost device (on webgpu) also check that the backend menu and the address follow the restart.
 */

const summary = (page: Page) => page.getByTestId("conformance-summary");

/**
 * Every fault ends in the same restart one backend down, and the menu must follow it: from the
 * notice on it never names, as the one running, the backend whose worker is dead; then it names
 * the new one, and so does the address.
 */
async function expectMenuFollows(page: Page, dead: string, next: string): Promise<void> {
  const menu = page.getByTestId("backend-select");
  const chosen = menu.locator("option:checked");
  await expect(page.getByTestId("backend-notice")).toContainText(`restarting it on ${next}`);
  expect(await chosen.textContent()).not.toBe(dead);
  await expect(page.getByTestId("backend")).toHaveText(next, { timeout: 30_000 });
  await expect(menu).toHaveValue(next);
  await expect(chosen).toHaveText(next);
  expect(new URL(page.url()).searchParams.getAll("backend")).toEqual([next]);
}

async function finishedRun(page: Page, count: number): Promise<void> {
  await loadCaseFile(page, `cases_${count}.json`, oneTokenCases(count));
  await expect(summary(page)).toHaveText(`${count} passed, 0 failed`, { timeout: 90_000 });
}

test("a GPU that stops answering is abandoned by the watchdog; the run stops with the reason and the next runs below", async ({
  page,
}) => {
  // A 2 s fixed wait instead of 10 s, so the test does not wait long for the watchdog.
  const problems = await openConformance(page, "backend=wasm&debug&watchdog=2000");
  await finishedRun(page, 3);
  await page.getByTestId("simulate-hang").click();
  const started = Date.now();
  await page.getByRole("button", { name: "Run again" }).click();
  await expect(page.getByTestId("error-message")).toHaveText(
    /^The run stopped: The engine worker on wasm stopped \(no answer from the engine within 2\.\d s \(the GPU may have hung\); the run was abandoned\); restarting it on cpu\.$/,
    { timeout: 30_000 },
  );
  expect(Date.now() - started).toBeGreaterThanOrEqual(2000);
  await expect(page.getByTestId("conformance-stopped")).toBeVisible();
  await expect(page.getByTestId("backend-notice")).toContainText("restarting it on cpu");
  await expect(page.getByTestId("backend")).toHaveText("cpu");
  await page.getByRole("button", { name: "Run again" }).click();
  await expect(summary(page)).toHaveText("3 passed, 0 failed", { timeout: 60_000 });
  await expect(page.getByTestId("backend")).toHaveText("cpu");
  expect(problems).toEqual([]);
});

test("a lost WebGPU device while idle keeps the finished results, and the next run is on webgl", async ({ page }) => {
  const problems = await openConformance(page, "backend=webgpu&debug");
  await finishedRun(page, 3);
  await expect(page.getByTestId("backend-select").locator("option:checked")).toHaveText("webgpu");
  await page.getByTestId("simulate-device-lost").click();
  await expectMenuFollows(page, "webgpu", "webgl");
  // What the user had is still there, whole.
  await expect(summary(page)).toHaveText("3 passed, 0 failed");
  await expect(page.getByTestId("verdict-row")).toHaveCount(3);
  await page.getByRole("button", { name: "Run again" }).click();
  await expect(summary(page)).toHaveText("3 passed, 0 failed", { timeout: 60_000 });
  await expect(page.getByTestId("backend")).toHaveText("webgl");
  expect(problems).toEqual([]);
});

test("a worker killed mid-run keeps the rows it finished, says so, and restarts below", async ({ page }) => {
  const problems = await openConformance(page, "backend=wasm&debug");
  await loadCaseFile(page, "many.json", oneTokenCases(4000));
  await expect(page.getByTestId("conformance-progress")).toHaveText(/Running: [1-9][\d,]* of 4,?000/, {
    timeout: 60_000,
  });
  await page.getByTestId("simulate-crash").click();
  await expect(page.getByTestId("error-message")).toContainText(
    "The run stopped: The engine worker on wasm stopped (Uncaught Error: simulated worker crash); restarting it on cpu.",
  );
  await expectMenuFollows(page, "wasm", "cpu");
  await expect(page.getByTestId("conformance-stopped")).toBeVisible();
  await expect(summary(page)).toHaveCount(0);
  expect(await page.locator('[data-testid="verdict-row"][data-state="pass"]').count()).toBeGreaterThan(0);
  await expect(page.getByTestId("backend")).toHaveText("cpu");
  expect(problems).toEqual([]);
});
