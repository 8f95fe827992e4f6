/**
 * `npx tsx bench/runMoves.bench.ts FILE.pt [--moves N] [--profile]`: where a user's moves in the run view go, once a
 * dump is open and drawn (`npm run build` first; `SCANLAB_OUT_DIR` picks another build). It alternates "select a
 * sample" (the 3rd to 6th rows of the table in turn) and "switch the heatmap's field" N times each, each timed in
 * the page from its click to drawn (as bench/run.bench.ts times them), under one trace: for each move, the
 * main thread's and the workers' tasks inside it (wall / thread CPU), each task's timeline parts, and with
 * `--profile` V8's samples: each task's functions by self time, and their sum per kind of move. It asserts
 * nothing: it is the breakdown behind the figures of docs/dumps.md ("Selecting a sample, switching the field").
 */

import { loadavg } from "node:os";
import { parseArgs } from "node:util";
import { launchChromium, ORIGIN, startServer, stopServer } from "./previewServer";
import { pageMainThread, recordTrace, runTasksOf, type TraceEvent, threadSamples } from "./trace";

/** V8's samples of the page's threads; a gap of 20 ms between samples is idle. */
function samplesOf(events: TraceEvent[], thread: (key: string) => boolean) {
  return threadSamples(events, thread, 20);
}
function topIn(samples: ReturnType<typeof samplesOf>, key: string, a: number, b: number, n = 6): string {
  const m = new Map<string, number>();
  for (const s of samples) if (s.key === key && s.ts >= a && s.ts < b) m.set(s.frame, (m.get(s.frame) ?? 0) + s.ms);
  return [...m.entries()]
    .sort((x, y) => y[1] - x[1])
    .slice(0, n)
    .map(([f, v]) => `${v.toFixed(1)} ${f}`)
    .join(" | ");
}

const { values: o, positionals } = parseArgs({
  allowPositionals: true,
  options: { moves: { type: "string", default: "6" }, profile: { type: "boolean", default: false } },
});
const file = positionals[0];
const MOVES = Number(o.moves);

const MOVE = `async ([kind, i]) => {
  const until = (done) => new Promise((resolve) => { const poll = () => (done() ? resolve() : requestAnimationFrame(poll)); poll(); });
  const busy = () => document.querySelector('[data-testid="run-results"]')?.getAttribute("aria-busy") !== "false";
  performance.mark("move-start-" + i);
  const t0 = performance.now();
  if (kind === "select") {
    const rows = [...document.querySelectorAll('[data-testid="run-samples"] tbody tr[data-sample]')];
    const row = rows[2 + (i % 4)];
    const sample = row.getAttribute("data-sample");
    row.querySelector("button").click();
    await until(() =>
      document.querySelector('[data-testid="run-sample-chart"]')?.getAttribute("data-sample") === sample &&
      document.querySelector('[data-testid="sample-fields"]')?.getAttribute("data-sample") === sample &&
      document.querySelector('[data-testid="sample-fields"]')?.getAttribute("aria-busy") === "false" && !busy());
  } else {
    const cur = document.querySelector('[data-testid="run-heatmap"]').getAttribute("data-field");
    const next = cur === "returns" ? "advantages" : "returns";
    document.querySelector('[data-testid="run-field-' + next + '"]').click();
    await until(() => document.querySelector('[data-testid="run-heatmap"]')?.getAttribute("data-field") === next && !busy());
  }
  const ms = performance.now() - t0;
  performance.mark("move-end-" + i);
  return ms;
}`;

const server = await startServer();
const browser = await launchChromium();
try {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto(`${ORIGIN}/?view=run`);
  await page.getByTestId("run-file-input").setInputFiles(file);
  await page
    .getByTestId("run-summary")
    .filter({ hasText: /within their float32 bounds|over/ })
    .waitFor({ timeout: 180_000 });
  await page.locator('[data-testid="run-results"][aria-busy="false"]').waitFor({ timeout: 120_000 });
  await page.waitForTimeout(3000);
  const results: { kind: string; ms: number }[] = [];
  const cats = ["toplevel", "blink.user_timing"];
  if (o.profile)
    cats.push("devtools.timeline", "disabled-by-default-devtools.timeline", "disabled-by-default-v8.cpu_profiler");
  const events = await recordTrace(page, cats, async () => {
    for (let i = 0; i < MOVES * 2; i++) {
      const kind = i % 2 === 0 ? "select" : "field";
      const ms = (await page.evaluate(`(${MOVE})(${JSON.stringify([kind, i])})`)) as number;
      results.push({ kind, ms: Math.round(ms) });
      await page.waitForTimeout(700);
    }
  });
  const main = pageMainThread(events);
  const workers = new Set<string>();
  for (const e of events)
    if (e.name === "thread_name" && e.args?.name?.startsWith("DedicatedWorker")) workers.add(`${e.pid}:${e.tid}`);
  const tasks = runTasksOf(events);
  const markTs = (name: string) => events.find((e) => e.name === name)?.ts ?? 0;
  const samples = samplesOf(events, (k) => k === main || workers.has(k));
  const timeline = events.filter((e) => e.ph === "X" && e.cat?.includes("devtools.timeline"));
  console.log(
    `load ${loadavg()
      .map((x) => x.toFixed(1))
      .join(", ")}`,
  );
  const agg = new Map<string, Map<string, number>>();
  results.forEach((r, i) => {
    const a0 = markTs(`move-start-${i}`);
    const b0 = markTs(`move-end-${i}`);
    for (const s of samples) {
      if (s.ts < a0 || s.ts >= b0) continue;
      const k = `${r.kind} ${s.key === main ? "main" : "worker"}`;
      const m = agg.get(k) ?? new Map<string, number>();
      m.set(s.frame, (m.get(s.frame) ?? 0) + s.ms);
      agg.set(k, m);
    }
  });
  for (const [k, m] of agg) {
    const n = results.filter((r) => k.startsWith(r.kind)).length;
    console.log(`== ${k}: per move, top self ms`);
    for (const [f, v] of [...m.entries()].sort((x, y) => y[1] - x[1]).slice(0, 25))
      console.log(`   ${(v / n).toFixed(1).padStart(6)} ${f}`);
  }
  results.forEach((r, i) => {
    const a = markTs(`move-start-${i}`);
    const b = markTs(`move-end-${i}`);
    const inMove = (e: TraceEvent) => e.ts + (e.dur ?? 0) > a && e.ts < b;
    const mainTasks = tasks.filter((e) => `${e.pid}:${e.tid}` === main && inMove(e));
    const workerTasks = tasks.filter((e) => workers.has(`${e.pid}:${e.tid}`) && inMove(e));
    const sum = (xs: TraceEvent[], k: "dur" | "tdur") => Math.round(xs.reduce((s, e) => s + (e[k] ?? 0), 0) / 1000);
    console.log(
      `${r.kind} ${r.ms} ms (trace ${Math.round((b - a) / 1000)}): main ${mainTasks.length} tasks ${sum(mainTasks, "dur")} wall/${sum(mainTasks, "tdur")} cpu; worker ${sum(workerTasks, "dur")}/${sum(workerTasks, "tdur")}`,
    );
    for (const t of mainTasks.filter((e) => (e.dur ?? 0) > 3000)) {
      const parts = new Map<string, number>();
      const open = new Map<string, number>();
      for (const e of timeline
        .filter((x) => `${x.pid}:${x.tid}` === main && x.ts >= t.ts && x.ts < t.ts + (t.dur ?? 0))
        .sort((x, y) => x.ts - y.ts)) {
        if ((open.get(e.name) ?? -1) > e.ts) continue;
        open.set(e.name, e.ts + (e.dur ?? 0));
        parts.set(e.name, (parts.get(e.name) ?? 0) + (e.dur ?? 0) / 1000);
      }
      const p = [...parts.entries()]
        .sort((x, y) => y[1] - x[1])
        .slice(0, 6)
        .map(([n, v]) => `${n} ${v.toFixed(1)}`)
        .join(", ");
      console.log(
        `   main +${Math.round((t.ts - a) / 1000)} ${Math.round((t.dur ?? 0) / 1000)}/${Math.round((t.tdur ?? 0) / 1000)}  ${p}`,
      );
      if ((t.dur ?? 0) > 10000) console.log(`       ${topIn(samples, main ?? "", t.ts, t.ts + (t.dur ?? 0))}`);
    }
    for (const t of workerTasks.filter((e) => (e.dur ?? 0) > 3000))
      console.log(
        `   worker +${Math.round((t.ts - a) / 1000)} ${Math.round((t.dur ?? 0) / 1000)}/${Math.round((t.tdur ?? 0) / 1000)}  ${topIn(samples, `${t.pid}:${t.tid}`, t.ts, t.ts + (t.dur ?? 0), 8)}`,
      );
  });
  await context.close();
} finally {
  await browser.close();
  stopServer(server);
}
