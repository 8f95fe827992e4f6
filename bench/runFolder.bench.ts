/**
 * `npm run bench:run-folder -- [DIR|run50]`: the run view summarising a run directory, as a user
 * chooses the folder, from the built page (`npm run build` first): time from the folder input's
 * change event to the first step's row in `run-steps` and to the whole run read (`run-folder` no
 * longer aria-busy), both seen in the page, the rate over the run's bytes, and the main thread's
 * longest task meanwhile. The issue's target: a run of 50 steps × 20 MB summarised at ≥ 100 MB/s,
 * its first step on screen within 1 s. Without an argument it writes (or reuses) run50 with
 * bench/dumpInputs.ts. It hovers the folder panel before the choice, as the pointer that clicks its
 * button does (`--cold-panel`: not). It asserts nothing: it reports.
 */
import { readdirSync, statSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { ensureDumpInput } from "./dumpInputs";
import { launchChromium, ORIGIN, startServer, stopServer } from "./previewServer";
import { rendererCpuSeconds, rendererPeakMb } from "./rendererMemory";

const { values: options, positionals } = parseArgs({
  allowPositionals: true,
  options: { repeats: { type: "string", default: "2" }, "cold-panel": { type: "boolean", default: false } },
});
const REPEATS = Number(options.repeats);
if (!(REPEATS > 0)) throw new Error("usage: bench:run-folder [DIR|run50] [--repeats N]");
const given = positionals[0] ?? "run50";
const dir =
  given === "run50" ? (await ensureDumpInput("run50", (line) => console.log(`  writing ${line}`))).path : given;

function bytesUnder(path: string): { files: number; bytes: number } {
  let files = 0;
  let bytes = 0;
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    const full = join(path, entry.name);
    if (entry.isDirectory()) {
      const inner = bytesUnder(full);
      files += inner.files;
      bytes += inner.bytes;
    } else {
      files++;
      bytes += statSync(full).size;
    }
  }
  return { files, bytes };
}
const { files, bytes } = bytesUnder(dir);

const server = await startServer();
const browser = await launchChromium();
try {
  const rows: {
    first: number;
    all: number;
    longest: number;
    busy: number;
    /** The renderer's CPU time over the run (its workers included), s. */
    cpu: number | null;
    rendererMb: number | null;
    steps: string;
  }[] = [];
  for (let rep = 0; rep < REPEATS; rep++) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.addInitScript(() => {
      const w = window as unknown as { chosenAt: number; firstAt: number; doneAt: number; longTasks: number[] };
      w.chosenAt = Number.POSITIVE_INFINITY;
      w.firstAt = Number.NaN;
      w.doneAt = Number.NaN;
      w.longTasks = [];
      document.addEventListener("change", () => (w.chosenAt = performance.now()), true);
      new MutationObserver(() => {
        if (!Number.isFinite(w.chosenAt)) return;
        if (Number.isNaN(w.firstAt) && document.querySelector('[data-testid="run-steps"] tbody tr[data-verdict]'))
          w.firstAt = performance.now();
        const busy = document.querySelector('[data-testid="run-folder"]')?.getAttribute("aria-busy");
        if (!Number.isNaN(w.firstAt) && Number.isNaN(w.doneAt) && busy === "false") w.doneAt = performance.now();
      }).observe(document, { subtree: true, childList: true, attributes: true });
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries())
          if (entry.startTime >= w.chosenAt) w.longTasks.push(Math.round(entry.duration));
      }).observe({ type: "longtask", buffered: true });
    });
    await page.goto(`${ORIGIN}/?view=run`);
    const input = page.locator("input[type=file][webkitdirectory]");
    await input.waitFor({ state: "attached" });
    await page.waitForTimeout(500);
    // The main thread's time in tasks over the run (Chromium's own counter): what drawing the rows and
    // trends takes from the cores the workers read with.
    const cdp = await context.newCDPSession(page);
    await cdp.send("Performance.enable");
    const taskSeconds = async () =>
      (await cdp.send("Performance.getMetrics")).metrics.find((m) => m.name === "TaskDuration")?.value ?? Number.NaN;
    const busyBefore = await taskSeconds();
    const cpuBefore = await rendererCpuSeconds(browser);
    // A person reaches the folder panel's button before a folder can be chosen: that pointer starts
    // the panel's first worker (RunFolder's `warm`), so the bench hovers it, as the click would, a
    // moment before the choice; `--cold-panel` leaves it out (the worker then starts with the folder).
    if (!options["cold-panel"]) {
      await page.getByTestId("run-folder").hover();
      await page.waitForTimeout(300);
    }
    await input.setInputFiles(dir);
    await page.waitForFunction(() => !Number.isNaN((window as unknown as { doneAt: number }).doneAt), null, {
      timeout: 600_000,
      polling: 200,
    });
    const figures = await page.evaluate(() => {
      const w = window as unknown as { chosenAt: number; firstAt: number; doneAt: number; longTasks: number[] };
      return { first: w.firstAt - w.chosenAt, all: w.doneAt - w.chosenAt, longest: Math.max(0, ...w.longTasks) };
    });
    const busy = (await taskSeconds()) - busyBefore;
    const cpuAfter = await rendererCpuSeconds(browser);
    const cpu = cpuBefore !== null && cpuAfter !== null ? cpuAfter - cpuBefore : null;
    const steps = (await page.getByTestId("run-folder-summary").textContent()) ?? "";
    rows.push({ ...figures, busy, cpu, rendererMb: await rendererPeakMb(browser), steps });
    await context.close();
  }
  console.log(
    `Run view, a folder of ${files} files (${(bytes / 1e6).toFixed(0)} MB), headless Chromium, ${cpus().length} CPUs, load average ${loadavg()[0].toFixed(1)}.`,
  );
  console.log(rows[0]?.steps);
  console.log(
    "| repeat | change event → first step's row | → whole run read | MB/s | renderer CPU (MB per CPU s) | longest main-thread task | main thread busy | renderer peak RSS |",
  );
  console.log(
    "| ------ | ------------------------------- | ---------------- | ---- | --------------------------- | ------------------------ | ---------------- | ----------------- |",
  );
  rows.forEach((r, i) => {
    const rate = bytes / 1e3 / r.all;
    console.log(
      `| ${i + 1} | ${r.first.toFixed(0)} ms | ${(r.all / 1000).toFixed(1)} s | ${rate.toFixed(0)} | ${r.cpu === null ? "?" : `${r.cpu.toFixed(1)} s (${(bytes / 1e6 / r.cpu).toFixed(0)})`} | ${r.longest} ms | ${r.busy.toFixed(1)} s | ${r.rendererMb ?? "?"} MB |`,
    );
  });
} finally {
  await browser.close();
  stopServer(server);
}
