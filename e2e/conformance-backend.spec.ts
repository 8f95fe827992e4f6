import { expect, test } from "@playwright/test";
import { openConformance } from "./conformance-page";

// What the backend menu and the address show after a worker dies and restarts one backend down
// is checked in faults.spec.ts, on each fault that restarts it (a crash on wasm, a lost device on webgpu).

test("a repeated address parameter is reported, and neither of two different values is used", async ({ page }) => {
  const problems = await openConformance(page, "backend=wasm&backend=webgpu");
  await expect(page.getByTestId("url-notice")).toHaveText(
    'Address: backend appears 2 times ("wasm", "webgpu"): different values; ignored, using auto',
  );
  await expect(page.getByTestId("backend-select")).toHaveValue("auto");
  await expect(page.getByTestId("backend")).not.toHaveText("not running", { timeout: 30_000 });
  await expect(page.getByTestId("backend-select").locator("option:checked")).toHaveText(
    /^auto \((webgpu|webgl|wasm|cpu) runs\)$/,
  );
  expect(problems).toEqual([]);
});
