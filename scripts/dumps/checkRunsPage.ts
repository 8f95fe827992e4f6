/**
 * The run view on run folders written by scripts/dumps/make_runs.py: each train dump chosen alone in the
 * file input, then the whole folder in the folder input, and what the page says of each step (verdict,
 * worst gap / bound, the settings read off it), as JSON on stdout. The comparison with `scanlab dump`
 * is made elsewhere (docs/dumps.md, "Real runs, not seen before, again").
 *
 *   SCANLAB_OUT_DIR=dist-realruns npx vite build
 *   SCANLAB_OUT_DIR=dist-realruns SCANLAB_BENCH_PORT=4314 npx tsx scripts/dumps/checkRunsPage.ts RUN_DIR… [--shots DIR]
 */
import { readdirSync } from "node:fs";
import { basename, join } from "node:path";
import type { Page } from "@playwright/test";
import { launchChromium, ORIGIN, startServer, stopServer } from "../../bench/previewServer";

const args = process.argv.slice(2);
const shotsAt = args.indexOf("--shots");
const shots = shotsAt >= 0 ? args[shotsAt + 1] : null;
const runs = args.filter((a, i) => a !== "--shots" && i !== shotsAt + 1);
const TIMEOUT = 600_000;

async function settingsShown(page: Page) {
  const value = (id: string) => page.getByTestId(id).inputValue();
  const checked = (id: string) => page.getByTestId(id).isChecked();
  const rolloutLp = page.locator("label.check", { hasText: "use_rollout_logprobs" }).locator("input");
  return {
    advantage_estimator: await value("run-estimator"),
    gamma: Number(await value("run-gamma")),
    lambd: Number(await value("run-lambd")),
    kl_coef: Number(await value("run-kl_coef")),
    kl_loss_type: await value("run-kl_loss_type"),
    context_parallel_size: Number(await value("run-context_parallel_size")),
    normalize_advantages: await checked("run-normalize_advantages"),
    use_rollout_logprobs: await rolloutLp.isChecked(),
    inferred: await page.locator("[data-testid^=run-inferred-]").allTextContents(),
  };
}

/** What the step view shows once its check is drawn: verdict, summary, the worst sample's row, the settings. */
async function stepShown(page: Page) {
  await page.getByTestId("run-check").or(page.getByTestId("error-message")).first().waitFor({ timeout: TIMEOUT });
  if ((await page.getByTestId("error-message").count()) > 0) {
    const error = await page.getByTestId("error-message").textContent();
    if (error) return { error };
  }
  await page.waitForFunction(
    () => document.querySelector('[data-testid="run-results"]')?.getAttribute("aria-busy") === "false",
    undefined,
    { timeout: TIMEOUT },
  );
  const firstRow = page.getByTestId("run-samples").locator("tbody tr[aria-rowindex]").first();
  const cells = await firstRow.locator("td").allTextContents();
  return {
    passed: (await page.getByTestId("run-check").getAttribute("data-passed")) === "true",
    summary: await page.getByTestId("run-summary").textContent(),
    stages: await page.getByTestId("run-stages").locator("li").allTextContents(),
    diagnosis:
      (await page.getByTestId("run-diagnosis").count()) > 0
        ? await page.getByTestId("run-diagnosis").textContent()
        : null,
    millis: await page.getByTestId("run-millis").textContent(),
    worstRow: cells,
    settings: await settingsShown(page),
  };
}

async function main() {
  const server = await startServer();
  const browser = await launchChromium();
  const out: Record<string, unknown> = {};
  try {
    for (const run of runs) {
      const trains = readdirSync(join(run, "train_data"))
        .filter((f) => f.endsWith(".pt"))
        .sort((a, b) => Number.parseInt(a, 10) - Number.parseInt(b, 10));
      let page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      const files: Record<string, unknown> = {};
      for (const f of trains) {
        await page.goto(`${ORIGIN}/?view=run`);
        const t0 = Date.now();
        await page.getByTestId("run-file-input").setInputFiles(join(run, "train_data", f));
        const shown = await stepShown(page);
        files[f] = { ...shown, seconds: (Date.now() - t0) / 1000 };
        process.stderr.write(`${basename(run)}/${f}: ${JSON.stringify(files[f]).slice(0, 300)}\n`);
      }
      await page.close();
      // The whole folder, in a fresh context: nothing kept from the files above is reopened beside it.
      page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      await page.goto(`${ORIGIN}/?view=run`);
      const t0 = Date.now();
      await page.locator("input[type=file][webkitdirectory]").setInputFiles(run);
      const steps = page.getByTestId("run-steps");
      await page.waitForFunction(
        (n) =>
          document.querySelector('[data-testid="run-folder"]')?.getAttribute("aria-busy") === "false" &&
          document.querySelectorAll('[data-testid="run-steps"] tbody tr[data-step]').length >= n,
        trains.length,
        { timeout: TIMEOUT },
      );
      const folderSeconds = (Date.now() - t0) / 1000;
      const rows = await steps.locator("tbody tr[data-step]").evaluateAll((trs) =>
        trs.map((tr) => ({
          step: tr.getAttribute("data-step"),
          passed: tr.getAttribute("data-passed"),
          verdict: tr.getAttribute("data-verdict"),
          cells: Array.from(tr.querySelectorAll("td")).map((td) => td.textContent),
          worstTitle: tr.querySelectorAll("td")[4]?.getAttribute("title") ?? null,
          title: tr.getAttribute("title"),
        })),
      );
      const summary = await page.getByTestId("run-folder-summary").textContent();
      const reasons = (await page.getByTestId("run-step-reasons").count())
        ? await page.getByTestId("run-step-reasons").textContent()
        : null;
      const unused = (await page.getByTestId("run-folder-unused").count())
        ? await page.getByTestId("run-folder-unused").textContent()
        : null;
      const message = (await page.getByTestId("run-folder-message").count())
        ? await page.getByTestId("run-folder-message").textContent()
        : null;
      if (shots) {
        await page.screenshot({ path: join(shots, `${basename(run)}-folder-1280.png`), fullPage: true });
      }
      // Each step opened from its row: the step view, with the settings it reads.
      const opened: Record<string, unknown> = {};
      for (const row of rows) {
        if (!row.step) continue;
        const s0 = Date.now();
        await steps.getByRole("button", { name: `Open step ${row.step}` }).click();
        await page.waitForFunction(
          (name) => document.querySelector('[data-testid="run-summary"]')?.textContent?.includes(name),
          `${row.step}.pt`,
          { timeout: TIMEOUT },
        );
        opened[row.step] = { ...(await stepShown(page)), seconds: (Date.now() - s0) / 1000 };
        if (shots && row.passed === "false") {
          await page.getByTestId("run-samples").locator("tbody tr[aria-rowindex]").first().click();
          await page.waitForTimeout(500);
          await page.screenshot({
            path: join(shots, `${basename(run)}-step${row.step}-worst-1280.png`),
            fullPage: true,
          });
          await page.setViewportSize({ width: 390, height: 844 });
          await page.waitForTimeout(500);
          await page.screenshot({
            path: join(shots, `${basename(run)}-step${row.step}-worst-390.png`),
            fullPage: true,
          });
          await page.getByTestId("run-folder").scrollIntoViewIfNeeded();
          await page.getByTestId("run-folder").screenshot({ path: join(shots, `${basename(run)}-folder-390.png`) });
          await page.setViewportSize({ width: 1280, height: 900 });
        }
      }
      out[basename(run)] = {
        files,
        folder: { seconds: folderSeconds, rows, summary, reasons, unused, message, opened },
      };
      process.stderr.write(`${basename(run)} folder: ${folderSeconds} s ${summary}\n`);
      await page.close();
    }
  } finally {
    await browser.close();
    stopServer(server);
  }
  process.stdout.write(`${JSON.stringify(out, null, 1)}\n`);
}

main().catch((e) => {
  process.stderr.write(`${e?.stack ?? e}\n`);
  process.exit(1);
});
