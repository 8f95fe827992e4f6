// Not committed: opens run folders and their train dumps one by one in the page, prints the verdicts.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { launchChromium, ORIGIN, startServer, stopServer } from "./previewServer";

const dirs = process.argv.slice(2);
const server = await startServer();
const browser = await launchChromium();
try {
  for (const dir of dirs) {
    const page = await (await browser.newContext()).newPage();
    await page.goto(`${ORIGIN}/?view=run`);
    const t0 = Date.now();
    await page.locator("input[type=file][webkitdirectory]").setInputFiles(dir);
    await page.locator('[data-testid="run-folder"][aria-busy="false"]').waitFor({ timeout: 600_000 });
    const rows = await page
      .getByTestId("run-steps")
      .locator("tbody tr")
      .evaluateAll((rs) =>
        rs.map((r) => `${r.getAttribute("data-step")} passed=${r.getAttribute("data-passed")} ${r.textContent}`),
      );
    console.log(`FOLDER ${dir} (${Date.now() - t0} ms): ${await page.getByTestId("run-folder-summary").textContent()}`);
    for (const r of rows) console.log(`  ${r}`);
    await page.context().close();
    for (const f of readdirSync(join(dir, "train_data")).sort()) {
      const p = await (await browser.newContext()).newPage();
      await p.goto(`${ORIGIN}/?view=run`);
      const t1 = Date.now();
      await p.getByTestId("run-file-input").setInputFiles(join(dir, "train_data", f));
      await p
        .getByTestId("run-summary")
        .filter({ hasText: /within their float32 bounds|over|fail/ })
        .waitFor({ timeout: 600_000 });
      await p.locator('[data-testid="run-results"][aria-busy="false"]').waitFor({ timeout: 600_000 });
      const check = await p
        .getByTestId("run-check")
        .getAttribute("data-passed")
        .catch(() => null);
      console.log(
        `FILE ${f} (${Date.now() - t1} ms) check=${check}: ${await p.getByTestId("run-summary").textContent()}`,
      );
      await p.context().close();
    }
  }
} finally {
  await browser.close();
  stopServer(server);
}
