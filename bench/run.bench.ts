/**
 * `npm run bench:run -- FILE.pt`: the run view opening a slime train dump, as a user drops it, from the built
 * page (`npm run build` first): time from the file input's change event to `run-summary` naming the verdict,
 * the worker's own read and replay times, and the page's main-thread long tasks meanwhile (PerformanceObserver
 * `longtask`): the read, unpickle and replay run in the run view's worker. The size is 64 samples of 8k
 * tokens (about 16 MB), made with slime's own code (bench/dump.bench.ts says how); without a file it opens the
 * largest committed dump. Settings: the big dump's (reinforce_plus_plus, γ 0.99, kl_coef 0.05). It asserts
 * nothing: it reports.
 */
import { readFileSync, statSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { basename } from "node:path";
import { launchChromium, ORIGIN, startServer, stopServer } from "./previewServer";

const file =
  process.argv.slice(2).find((a) => !a.startsWith("--")) ?? "cases/dumps/slime-shared/train_rpp_g099_kl005.pt";
const REPEATS = 3;
const buffer = readFileSync(file);

interface Figure {
  millis: number;
  worker: string;
  longest: number;
  over100: number;
  summary: string;
}

const server = await startServer();
const browser = await launchChromium();
try {
  const rows: Figure[] = [];
  for (let rep = 0; rep < REPEATS; rep++) {
    // A fresh context each time: nothing kept in IndexedDB from the last repeat.
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.addInitScript(() => {
      // Long tasks from the moment the input has the file: Playwright hands the file over CDP, which
      // costs the page seconds of its own before the change event, and a real drop does not.
      const w = window as unknown as { longTasks: number[]; chosenAt: number };
      w.longTasks = [];
      w.chosenAt = Number.POSITIVE_INFINITY;
      document.addEventListener(
        "change",
        () => {
          w.chosenAt = performance.now();
        },
        true,
      );
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) {
          if (entry.startTime >= w.chosenAt) w.longTasks.push(Math.round(entry.duration));
        }
      }).observe({ type: "longtask", buffered: true });
    });
    await page.goto(`${ORIGIN}/?view=run&advantage_estimator=reinforce_plus_plus&gamma=0.99&kl_coef=0.05`);
    await page.getByTestId("run-file-input").waitFor();
    await page.waitForTimeout(500);
    await page
      .getByTestId("run-file-input")
      .setInputFiles({ name: basename(file), mimeType: "application/octet-stream", buffer });
    await page
      .getByTestId("run-summary")
      .filter({ hasText: /within their float32 bounds|over/ })
      .waitFor({ timeout: 120_000 });
    const millis = Math.round(
      await page.evaluate(() => performance.now() - (window as unknown as { chosenAt: number }).chosenAt),
    );
    await page.waitForTimeout(1000); // the table, heatmap and chart drawing that follow
    const longTasks = await page.evaluate(() => (window as unknown as { longTasks: number[] }).longTasks);
    rows.push({
      millis,
      worker: (await page.getByTestId("run-millis").textContent()) ?? "",
      longest: Math.max(0, ...longTasks),
      over100: longTasks.filter((t) => t > 100).length,
      summary: (await page.getByTestId("run-summary").textContent()) ?? "",
    });
    await context.close();
  }
  const load = loadavg()
    .map((x) => x.toFixed(1))
    .join(", ");
  const mb = (statSync(file).size / 2 ** 20).toFixed(1);
  console.log(
    `Run view, ${basename(file)} (${mb} MiB), headless Chromium, ${cpus().length} CPUs, load average ${load}.`,
  );
  console.log(rows[0]?.summary);
  console.log(
    "| repeat | change event → run-summary | in the worker | longest main-thread task after it | tasks > 100 ms |",
  );
  console.log(
    "| ------ | -------------------------- | ------------- | --------------------------------- | -------------- |",
  );
  rows.forEach((r, i) => {
    console.log(`| ${i + 1} | ${r.millis} ms | ${r.worker} | ${r.longest} ms | ${r.over100} |`);
  });
} finally {
  await browser.close();
  stopServer(server);
}
