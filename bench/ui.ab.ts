/**
 * `npx tsx bench/ui.ab.ts --a DIR --b DIR`: two builds of the page compared edit for edit, on a
 * shared machine whose load comes and goes. Both builds are served from one folder (their assets
 * have content-hashed names; B's page is /b.html), opened side by side in two browser contexts,
 * and edited in turn, A then B, so that whatever load there is falls on both alike. For each edit
 * it records the page-clock time (probe.ts: input event → the first redraw, and → the engine's result drawn) and, from a
 * trace of that window, the CPU time of each thread of the page's renderer process (main thread,
 * engine worker, core worker…), which the load changes far less than the wall time.
 *
 * Options: `--size 16x8192 --backend wasm|webgpu --edit gamma-typed|gamma-slider|lambda-slider|chunk-step|stroke
 * --repeats 10`. SCANLAB_BENCH_PORT as for the benches.
 */
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import type { Browser, Page } from "@playwright/test";
import { BASE_SETTINGS } from "../src/io/presets";
import { encodeState } from "../src/io/shareLink";
import { launchChromium, ORIGIN, startServer, stopServer } from "./previewServer";
import { conventionRuns, EDITS, type EditId, settle } from "./ui/edits";
import { arm, heatmapTime, PROBE_SCRIPT, timing } from "./ui/probe";
import { median, ms, p95, table } from "./ui/stats";
import { threadCpu } from "./ui/taskCpu";

const { values: options } = parseArgs({
  options: {
    a: { type: "string" },
    b: { type: "string" },
    size: { type: "string", default: "16x8192" },
    backend: { type: "string", default: "wasm" },
    edit: { type: "string", default: "gamma-typed" },
    repeats: { type: "string", default: "10" },
  },
});
if (!options.a || !options.b)
  throw new Error("usage: ui.ab.ts --a DIR --b DIR [--size RxT --backend B --edit E --repeats N]");
const edit = EDITS[options.edit as EditId];
if (!edit) throw new Error(`--edit: ${options.edit}`);
const [rows, tokens] = options.size.split("x").map(Number);
const backend = options.backend as "wasm" | "webgpu";
const repeats = Number(options.repeats);

/** One folder serving both builds: A's files, B's assets beside them, B's page as b.html. */
function merge(a: string, b: string): string {
  const out = "dist-uiab";
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out);
  cpSync(a, out, { recursive: true });
  for (const name of readdirSync(join(b, "assets"))) {
    const to = join(out, "assets", name);
    if (!existsSync(to)) cpSync(join(b, "assets", name), to);
  }
  cpSync(join(b, "index.html"), join(out, "b.html"));
  return out;
}

interface Sample {
  /** Input event → the frame after the first redraw (core's result at teaching size). */
  firstMs: number;
  /** Input event → the engine's result drawn (aria-busy false). */
  ms: number;
  /** Input event → aria-busy false and the heatmap's canvas redrawn, whichever is later. */
  allMs: number;
  /** The edit's longest main-thread task (0: none over 50 ms). */
  longestMs: number;
  cpu: Map<string, number>;
}

async function open(browser: Browser, page: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const p = await context.newPage();
  await p.addInitScript(PROBE_SCRIPT);
  const state = {
    ...BASE_SETTINGS,
    estimator: edit.gaeOnly ? ("gae" as const) : ("discounted" as const),
    backend,
    data: { source: "preset" as const, preset: "dense" as const, seed: 7, rows, tokens, ragged: false },
  };
  await p.goto(`${ORIGIN}/${page}?s=${encodeState(state)}`);
  await timing(p);
  await settle(p, edit.gaeOnly === true ? 0 : null, 1500);
  return p;
}

async function once(page: Page, rep: number): Promise<Sample> {
  await edit.prepare?.(page);
  const conventions = edit.gaeOnly === true ? await conventionRuns(page) : null;
  await arm(page, edit.trigger(rep));
  let t = 0;
  let first = 0;
  let heatmap = 0;
  let longestMs = 0;
  const cpu = await threadCpu(page, async () => {
    await edit.act(page, rep, edit.gaeOnly ? "gae" : "discounted");
    const result = await timing(page);
    t = result.engineMs;
    first = result.firstMs;
    longestMs = result.longTasks[0] ?? 0;
    heatmap = await heatmapTime(page);
  });
  await settle(page, conventions, 1000);
  // No redraw seen: the heatmap drew before aria-busy cleared, or its draw time read the same.
  return { firstMs: first, ms: t, allMs: Number.isNaN(heatmap) ? t : Math.max(t, heatmap), longestMs, cpu };
}

const dir = merge(options.a, options.b);
const server = await startServer(dir);
const browser = await launchChromium();
const loadStart = loadavg();
try {
  const pages = { A: await open(browser, ""), B: await open(browser, "b.html") };
  const samples: Record<"A" | "B", Sample[]> = { A: [], B: [] };
  for (let rep = 0; rep < repeats; rep++) {
    // Alternate which goes first, so neither always follows the other's leftovers.
    const order = rep % 2 === 0 ? (["A", "B"] as const) : (["B", "A"] as const);
    for (const k of order) samples[k].push(await once(pages[k], rep));
  }
  const threads = [...new Set([...samples.A, ...samples.B].flatMap((s) => [...s.cpu.keys()]))];
  const cpuOf = (k: "A" | "B", thread: string) => median(samples[k].map((s) => s.cpu.get(thread) ?? 0));
  const shown = threads.filter((t) => Math.max(cpuOf("A", t), cpuOf("B", t)) >= 1);
  console.log(
    `A/B: A = ${options.a}, B = ${options.b}; ${rows} × ${tokens}, ${backend}, ${edit.label}, ${repeats} each, alternating; ` +
      `${cpus().length} CPUs, load average ${loadStart.map((x) => x.toFixed(1)).join(", ")} → ${loadavg()
        .map((x) => x.toFixed(1))
        .join(", ")}\n`,
  );
  const diffs = samples.A.map((a, i) => samples.B[i].allMs - a.allMs);
  console.log(
    table(
      [
        "build",
        "first redraw, median / p95",
        "edit → engine result (aria-busy), median / p95",
        "→ and heatmap drawn",
        "longest task, median / worst",
        ...shown.map((t) => `${t} CPU (median)`),
      ],
      (["A", "B"] as const).map((k) => [
        k,
        `${ms(median(samples[k].map((s) => s.firstMs)))} / ${ms(p95(samples[k].map((s) => s.firstMs)))}`,
        `${ms(median(samples[k].map((s) => s.ms)))} / ${ms(p95(samples[k].map((s) => s.ms)))}`,
        `${ms(median(samples[k].map((s) => s.allMs)))} / ${ms(p95(samples[k].map((s) => s.allMs)))}`,
        `${median(samples[k].map((s) => s.longestMs))} / ${Math.max(...samples[k].map((s) => s.longestMs))} ms`,
        ...shown.map((t) => ms(cpuOf(k, t))),
      ]),
    ),
  );
  console.log(`\nB − A (to everything drawn), median of the paired differences: ${ms(median(diffs))}`);
} finally {
  await browser.close();
  stopServer(server);
}
