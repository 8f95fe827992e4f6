/**
 * `npm run bench:run -- FILE.pt`: the run view opening a slime train dump, as a user drops it, from the built
 * page (`npm run build` first): time from the file input's change event to `run-summary` naming the verdict and
 * to everything drawn (`run-results` no longer aria-busy: the table, the heatmap, the chart), both seen in the page,
 * the worker's own read and replay times, and the page's main-thread long tasks meanwhile (PerformanceObserver
 * `longtask`): the read, unpickle and replay run in the run view's worker. The issue's size is 64 samples of 8k
 * tokens (about 16 MB), made with slime's own code (bench/dump.bench.ts says how); without a file it opens the
 * largest committed dump. Settings: `--settings "advantage_estimator=ppo&gamma=1"` as the address takes them, else read off the dump. It asserts
 * nothing: it reports.
 *
 * With `--switch N` (default 4) each repeat then switches the heatmap's field N times (returns, advantages, …)
 * and times each from the radio's change event to `run-results` no longer busy (the heatmap and the chart
 * drawn with the new field), with the longest main-thread task meanwhile.
 *
 * Each repeat is traced (CDP, category `toplevel`), which gives each task's thread CPU time beside its wall time
 * (on a loaded machine the wall time grows with the wait for a core, the CPU time much less). Options: `--repeats N` (default 3); `--profile` adds V8's sampler and the timeline events to
 * the trace and prints, for each task over 50 ms, its layout, style, paint and script and the functions with the
 * most self time (build with `npx vite build --minify false` for readable names); `--trace-dir DIR` writes each
 * repeat's trace as DIR/run-N.json, to open in DevTools' Performance panel.
 */
import { mkdirSync, statSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { basename } from "node:path";
import { parseArgs } from "node:util";
import { launchChromium, ORIGIN, startServer, stopServer } from "./previewServer";
import { rendererPeakMb } from "./rendererMemory";
import { type TaskFigure, traceTasks } from "./trace";

const { values: options, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    repeats: { type: "string", default: "3" },
    profile: { type: "boolean", default: false },
    "trace-dir": { type: "string" },
    // The run's settings as the address gives them (`advantage_estimator=ppo&gamma=1`); none: read off the dump.
    settings: { type: "string" },
    switch: { type: "string", default: "4" },
  },
});
const file = positionals[0] ?? "cases/dumps/slime-shared/train_rpp_g099_kl005.pt";
const REPEATS = Number(options.repeats);
const SWITCHES = Number(options.switch);
if (!(REPEATS > 0)) throw new Error("usage: bench:run [FILE] [--repeats N] [--profile] [--trace-dir DIR]");
const traceDir = options["trace-dir"];
if (traceDir) mkdirSync(traceDir, { recursive: true });

interface Figure {
  millis: number;
  /** From the change event to run-results no longer busy: the table, the heatmap and the chart drawn. */
  drawnMillis: number;
  worker: string;
  /** The workers' thread CPU time from the change event on, ms. */
  workerCpu: number;
  longest: number;
  /** The most thread CPU time one main-thread task over 50 ms took (the rest of its wall time it waited for a core). */
  cpu: number;
  over100: number;
  /** A click on another sample's row to its chart and its fields drawn, ms (null: no row to click). */
  selectMillis: number | null;
  /** A click on the returns field to its heatmap drawn (run-results no longer busy), ms. */
  fieldMillis: number | null;
  /** The renderer's peak resident memory, MB (its workers included). */
  rendererMb: number | null;
  summary: string;
  tasks: TaskFigure[];
  /** Each field switch: change event → drawn, and the longest main-thread task meanwhile. */
  switches: { field: string; millis: number; longest: number }[];
  /** Main-thread tasks of 30 ms or more from the first switch on, with their CPU time. */
  switchTasks: TaskFigure[];
}

/** In the page: a click on the third row's sample, then on the returns field, each timed to its drawing. */
const USER_MOVES = `async () => {
          const until = (done) =>
            new Promise((resolve) => {
              const poll = () => (done() ? resolve() : requestAnimationFrame(poll));
              poll();
            });
          const busy = () =>
            document.querySelector('[data-testid="run-results"]')?.getAttribute("aria-busy") !== "false";
          const rows = [...document.querySelectorAll('[data-testid="run-samples"] tbody tr[data-sample]')];
          const row = rows[Math.min(2, rows.length - 1)];
          let select = null;
          if (row) {
            const sample = row.getAttribute("data-sample");
            const t0 = performance.now();
            row.querySelector("button")?.click();
            await until(
              () =>
                document.querySelector('[data-testid="run-sample-chart"]')?.getAttribute("data-sample") === sample &&
                document.querySelector('[data-testid="sample-fields"]')?.getAttribute("data-sample") === sample &&
                document.querySelector('[data-testid="sample-fields"]')?.getAttribute("aria-busy") === "false" &&
                !busy(),
            );
            select = performance.now() - t0;
          }
          const returns = document.querySelector('[data-testid="run-field-returns"]');
          let field = null;
          if (returns && !returns.disabled) {
            const t0 = performance.now();
            returns.click();
            await until(
              () =>
                document.querySelector('[data-testid="run-heatmap"]')?.getAttribute("data-field") === "returns" &&
                !busy(),
            );
            field = performance.now() - t0;
          }
          return [select, field].map((x) => (x === null ? null : Math.round(x)));
        }`;

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

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
      const w = window as unknown as {
        longTasks: number[];
        chosenAt: number;
        summaryAt: number;
        drawnAt: number;
        switchAt: number;
        switchDrawnAt: number;
        switchTasks: number[];
      };
      w.longTasks = [];
      w.switchAt = Number.NaN;
      w.switchDrawnAt = Number.NaN;
      w.switchTasks = [];
      w.chosenAt = Number.POSITIVE_INFINITY;
      w.summaryAt = Number.NaN;
      w.drawnAt = Number.NaN;
      // When the verdict shows, and when run-results stops being busy after it (the table, heatmap and
      // chart drawn), seen in the page: Playwright's polling lags behind a page that is busy drawing.
      new MutationObserver(() => {
        if (!Number.isFinite(w.chosenAt)) return;
        const summary = document.querySelector('[data-testid="run-summary"]')?.textContent ?? "";
        if (Number.isNaN(w.summaryAt) && /within their float32 bounds|over/.test(summary))
          w.summaryAt = performance.now();
        const busy = document.querySelector('[data-testid="run-results"]')?.getAttribute("aria-busy");
        if (!Number.isNaN(w.summaryAt) && Number.isNaN(w.drawnAt) && busy === "false") w.drawnAt = performance.now();
        if (!Number.isNaN(w.switchAt) && Number.isNaN(w.switchDrawnAt) && busy === "false")
          w.switchDrawnAt = performance.now();
      }).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
      document.addEventListener(
        "change",
        (event) => {
          if ((event.target as HTMLInputElement | null)?.name === "run-field") {
            w.switchAt = performance.now();
            w.switchDrawnAt = Number.NaN;
            w.switchTasks = [];
            performance.mark("scanlab-field-switch");
            return;
          }
          w.chosenAt = performance.now();
          performance.mark("scanlab-file-chosen"); // where the trace's tasks start
        },
        true,
      );
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) {
          if (entry.startTime >= w.switchAt) w.switchTasks.push(Math.round(entry.duration));
          else if (entry.startTime >= w.chosenAt) w.longTasks.push(Math.round(entry.duration));
        }
      }).observe({ type: "longtask", buffered: true });
    });
    await page.goto(`${ORIGIN}/?view=run${options.settings ? `&${options.settings}` : ""}`);
    await page.getByTestId("run-file-input").waitFor();
    await page.waitForTimeout(500);
    let millis = 0;
    let drawnMillis = 0;
    let selectMillis: number | null = null;
    let fieldMillis: number | null = null;
    const trace = await traceTasks(
      page,
      async () => {
        await page
          .getByTestId("run-file-input")
          // By path: Playwright refuses a buffer over 50 MB, and a real dump is 0.2–1.5 GB.
          .setInputFiles(file);
        await page
          .getByTestId("run-summary")
          .filter({ hasText: /within their float32 bounds|over/ })
          .waitFor({ timeout: 120_000 });
        // The table, heatmap and chart that follow: drawn when run-results is no longer busy.
        await page.locator('[data-testid="run-results"][aria-busy="false"]').waitFor({ timeout: 60_000 });
        [millis, drawnMillis] = await page.evaluate(() => {
          const w = window as unknown as { chosenAt: number; summaryAt: number; drawnAt: number };
          return [Math.round(w.summaryAt - w.chosenAt), Math.round(w.drawnAt - w.chosenAt)];
        });
        await page.waitForTimeout(1000);
        // Then a user's next moves, timed in the page: another sample, then another field.
        // A string, not a function: tsx names the helpers with a __name the page does not have.
        [selectMillis, fieldMillis] = (await page.evaluate(`(${USER_MOVES})()`)) as (number | null)[];
      },
      {
        mark: "scanlab-file-chosen",
        profile: options.profile,
        path: traceDir ? `${traceDir}/run-${rep + 1}.json` : undefined,
      },
    );
    const longTasks = await page.evaluate(() => (window as unknown as { longTasks: number[] }).longTasks);
    const switches: Figure["switches"] = [];
    const switchTrace = await traceTasks(
      page,
      async () => {
        for (let k = 0; k < SWITCHES; k++) {
          const field = k % 2 === 0 ? "returns" : "advantages";
          await page.getByTestId(`run-field-${field}`).check();
          await page.waitForFunction(
            () => !Number.isNaN((window as unknown as { switchDrawnAt: number }).switchDrawnAt),
            null,
            { timeout: 60_000 },
          );
          await page.waitForTimeout(300); // long tasks are reported after they end
          switches.push(
            await page.evaluate((field) => {
              const w = window as unknown as { switchAt: number; switchDrawnAt: number; switchTasks: number[] };
              return {
                field,
                millis: Math.round(w.switchDrawnAt - w.switchAt),
                longest: Math.max(0, ...w.switchTasks),
              };
            }, field),
          );
        }
      },
      { mark: "scanlab-field-switch", profile: options.profile, minMs: 30 },
    );
    rows.push({
      millis,
      drawnMillis,
      worker: (await page.getByTestId("run-millis").textContent()) ?? "",
      workerCpu: trace.workerCpuMs,
      selectMillis,
      fieldMillis,
      longest: Math.max(0, ...longTasks),
      cpu: Math.max(0, ...trace.tasks.map((t) => t.cpuMs)),
      over100: longTasks.filter((t) => t > 100).length,
      rendererMb: await rendererPeakMb(browser),
      summary: (await page.getByTestId("run-summary").textContent()) ?? "",
      tasks: trace.tasks,
      switches,
      switchTasks: switchTrace.tasks,
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
    "| repeat | change event → run-summary | → all drawn | in the worker | workers' CPU | select a sample | switch the field | longest main-thread task after it | most CPU in one task | tasks > 100 ms | renderer peak RSS | tasks ≥ 50 ms: +at wall/CPU |",
  );
  console.log(
    "| ------ | -------------------------- | ----------- | ------------- | ------------ | --------------- | ---------------- | --------------------------------- | -------------------- | -------------- | ----------------- | --------------------------- |",
  );
  rows.forEach((r, i) => {
    const tasks = r.tasks.map((t) => `+${t.at} ${t.wallMs}/${t.cpuMs}`).join(", ");
    console.log(
      `| ${i + 1} | ${r.millis} ms | ${r.drawnMillis} ms | ${r.worker} | ${(r.workerCpu / 1000).toFixed(1)} s | ${r.selectMillis ?? "–"} ms | ${r.fieldMillis ?? "–"} ms | ${r.longest} ms | ${r.cpu} ms | ${r.over100} | ${r.rendererMb ?? "?"} MB | ${tasks} |`,
    );
  });
  const longest = rows.map((r) => r.longest);
  console.log(
    `Longest task: median ${median(longest)} ms, worst ${Math.max(...longest)} ms (the most CPU one task took: ${Math.max(...rows.map((r) => r.cpu))} ms), ` +
      `under 100 ms in ${longest.filter((t) => t < 100).length} of ${rows.length}; to the summary: median ${median(rows.map((r) => r.millis))} ms, worst ${Math.max(...rows.map((r) => r.millis))} ms; all drawn: median ${median(rows.map((r) => r.drawnMillis))} ms.`,
  );
  if (SWITCHES > 0) {
    const all = rows.flatMap((r) => r.switches);
    console.log(
      `Field switch (change event → drawn), ${all.length} switches: ${all.map((x) => `${x.field} ${x.millis} ms (longest task ${x.longest} ms)`).join(", ")}; ` +
        `median ${median(all.map((x) => x.millis))} ms, worst ${Math.max(...all.map((x) => x.millis))} ms, longest task ${Math.max(...all.map((x) => x.longest))} ms.`,
    );
    rows.forEach((r, i) => {
      const tasks = r.switchTasks.map((t) => `+${t.at} ${t.wallMs}/${t.cpuMs}`).join(", ");
      console.log(`repeat ${i + 1}, switches' tasks ≥ 30 ms (+at wall/CPU ms): ${tasks || "none"}`);
      if (options.profile) {
        for (const t of r.switchTasks) {
          console.log(`  switch task at +${t.at} ms, ${t.wallMs} ms wall, ${t.cpuMs} ms CPU`);
          console.log(`    parts: ${t.parts.map(([n, ms]) => `${n} ${ms}`).join(", ")}`);
          for (const [name, ms] of t.functions) console.log(`    ${ms.toFixed(1).padStart(6)} ms  ${name}`);
        }
      }
    });
  }
  if (options.profile) {
    rows.forEach((r, i) => {
      for (const t of r.tasks) {
        console.log(`\nrepeat ${i + 1}: task at +${t.at} ms, ${t.wallMs} ms wall, ${t.cpuMs} ms CPU`);
        console.log(`  parts: ${t.parts.map(([n, ms]) => `${n} ${ms}`).join(", ")}`);
        for (const [name, ms] of t.functions) console.log(`  ${ms.toFixed(1).padStart(6)} ms  ${name}`);
      }
    });
  }
} finally {
  await browser.close();
  stopServer(server);
}
