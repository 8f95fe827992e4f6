import { expect, test } from "@playwright/test";
import { openConformance } from "./conformance-page";

/**
 * After a crash the client restarts the engine one backend down by itself. The menu must follow:
 * it never names, as the one running, a backend whose worker is dead.
 */
for (const [backend, next] of [
  ["webgpu", "webgl"],
  ["wasm", "cpu"],
] as const) {
  test(`after the ${backend} worker crashes, the menu and the backend hook name ${next}, never ${backend}`, async ({
    page,
  }) => {
    const problems = await openConformance(page, `backend=${backend}&debug`);
    const menu = page.getByTestId("backend-select");
    const chosen = menu.locator("option:checked");
    await expect(page.getByTestId("backend")).toHaveText(backend, { timeout: 30_000 });
    await expect(chosen).toHaveText(backend);

    await page.getByTestId("simulate-crash").click();
    await expect(page.getByTestId("backend-notice")).toContainText(
      `The engine worker on ${backend} stopped (Uncaught Error: simulated worker crash); restarting it on ${next}.`,
    );
    // From the notice on, the menu says what runs (or that nothing does yet), not the dead backend.
    expect(await chosen.textContent()).not.toBe(backend);
    await expect(page.getByTestId("backend")).toHaveText(next, { timeout: 30_000 });
    await expect(menu).toHaveValue(next);
    await expect(chosen).toHaveText(next);
    expect(new URL(page.url()).searchParams.getAll("backend")).toEqual([next]);
    expect(problems).toEqual([]);
  });
}

test("a repeated address parameter is reported, and neither of two different values is used", async ({ page }) => {
  const problems = await openConformance(page, "backend=wasm&backend=webgpu");
  await expect(page.getByTestId("url-notice")).toHaveText(
    'Ignored backend in the address: it appears 2 times ("wasm", "webgpu") and they disagree; using auto.',
  );
  await expect(page.getByTestId("backend-select")).toHaveValue("auto");
  await expect(page.getByTestId("backend")).not.toHaveText("not running", { timeout: 30_000 });
  await expect(page.getByTestId("backend-select").locator("option:checked")).toHaveText(
    /^auto \((webgpu|webgl|wasm|cpu) runs\)$/,
  );
  expect(problems).toEqual([]);
});
