/**
 * `npx tsx bench/ui.profile.ts`: where the time of a playground edit goes, thread by thread. It
 * opens a batch as bench:ui does, traces a few edits with Chromium's tracing (devtools.timeline,
 * toplevel, V8's sampling profiler, user timing) and prints, per edit and thread (the page's main
 * thread, the engine worker, the core worker, the others), the tasks from the input event to the
 * engine's result on screen, their wall and CPU time and the functions that took the time (self
 * time from the samples, by function and file). Build without minifying for readable names:
 * `npx vite build --outDir dist-uiprof --minify false` and SCANLAB_OUT_DIR=dist-uiprof.
 *
 * Options: `--rows 16 --tokens 8192 --backend wasm|webgpu --edit gamma-typed|gamma-slider|lambda-slider|chunk-step|stroke
 * --repeats 3 --top 25 --timeline` (every task of each edit, in order; `--detail MS`: the functions of each task of
 * more CPU time than that), `--trace FILE` (saves the trace and the
 * edits' times), `--read FILE` (analyses a saved one instead of running the page). `--cold`: instead of
 * edits, `--repeats` first visits of `/` in fresh contexts (no cache, no session), each traced from the
 * navigation to the first result drawn (the window starts at the document's navigationStart).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { parseArgs } from "node:util";
import { BASE_SETTINGS } from "../src/io/presets";
import { encodeState } from "../src/io/shareLink";
import { launchChromium, ORIGIN, startServer, stopServer } from "./previewServer";
import { type ProfileNode, recordTrace, type TraceEvent } from "./trace";
import { conventionRuns, EDITS, type EditId, settle } from "./ui/edits";
import { arm, PROBE_SCRIPT, timing } from "./ui/probe";

const { values: options } = parseArgs({
  options: {
    rows: { type: "string", default: "16" },
    tokens: { type: "string", default: "8192" },
    backend: { type: "string", default: "wasm" },
    edit: { type: "string", default: "gamma-typed" },
    repeats: { type: "string", default: "3" },
    top: { type: "string", default: "25" },
    timeline: { type: "boolean", default: false },
    trace: { type: "string" },
    read: { type: "string" },
    detail: { type: "string" },
    cold: { type: "boolean", default: false },
  },
});
const edit = EDITS[options.edit as EditId];
if (!edit) throw new Error(`--edit: ${options.edit}`);
const backend = options.backend as "wasm" | "webgpu";

/** Every category the breakdown reads: tasks, timeline events, V8's samples and the probe's marks. */
const CATEGORIES = [
  "toplevel",
  "devtools.timeline",
  "v8.execute",
  "blink.user_timing",
  "disabled-by-default-v8.cpu_profiler",
  "disabled-by-default-devtools.timeline",
];

const key = (e: { pid: number; tid: number }) => `${e.pid}:${e.tid}`;
const base = (url: string | undefined) =>
  (url ?? "").replace(/^.*\//, "").replace(/-[A-Za-z0-9_-]{8}\.js$/, ".js") || "(native)";

/** Samples of every thread: time (trace µs) and the leaf node. */
function samplesOf(events: TraceEvent[]) {
  const profiles = new Map<string, { thread: string; start: number; nodes: Map<number, ProfileNode> }>();
  const samples: { thread: string; ts: number; node: ProfileNode; nodes: Map<number, ProfileNode> }[] = [];
  for (const e of events) {
    if (e.name === "Profile" && e.id) {
      profiles.set(`${e.pid}:${e.id}`, { thread: key(e), start: e.args?.data?.startTime ?? e.ts, nodes: new Map() });
    }
  }
  const clocks = new Map<string, number>();
  for (const e of events) {
    if (e.name !== "ProfileChunk" || !e.id) continue;
    const p = profiles.get(`${e.pid}:${e.id}`);
    if (!p) continue;
    const data = e.args?.data;
    for (const n of data?.cpuProfile?.nodes ?? []) p.nodes.set(n.id, n);
    let t = clocks.get(`${e.pid}:${e.id}`) ?? p.start;
    const ids = data?.cpuProfile?.samples ?? [];
    const deltas = data?.timeDeltas ?? [];
    for (let i = 0; i < ids.length; i++) {
      t += deltas[i] ?? 0;
      const node = p.nodes.get(ids[i]);
      if (node) samples.push({ thread: p.thread, ts: t, node, nodes: p.nodes });
    }
    clocks.set(`${e.pid}:${e.id}`, t);
  }
  return samples;
}

/** The app function a sample is in: the innermost frame of our own code (assets/*.js), else the leaf. */
function frameName(node: ProfileNode, nodes: Map<number, ProfileNode>): { self: string; own: string } {
  const name = (n: ProfileNode) => `${n.callFrame.functionName || "(anonymous)"} ${base(n.callFrame.url)}`;
  const self = name(node);
  let n: ProfileNode | undefined = node;
  while (n) {
    const url = n.callFrame.url ?? "";
    if (/assets\//.test(url) && !/tfjs|react-dom|recharts|comlink/i.test(url)) break;
    n = n.parent !== undefined ? nodes.get(n.parent) : undefined;
  }
  return { self, own: n ? name(n) : self };
}

/** The step of the edit a function belongs to: the first of these met walking up from the sampled frame. */
const STEPS: [RegExp, string][] = [
  [/^(serialTables|serialDiscountedReturns|serialGae)$/, "serial scans (float64 reference, float32 loop)"],
  [/^(problemsFor|withParams|buildInputs)$/, "inputs (problemsFor)"],
  [/^(forTransfer|cloneProblem|float64|rowProblem|rowBatch)$/, "copies for the workers"],
  [/^(paddedTables|outputTables|padRows)$/, "padded tables"],
  [/^(ErrorAccumulator|summarizeErrors)$/, "error summary"],
  [/^runPlayground$/, "run steps (summary, yields)"],
  [/^(measureJob|measureRows|measure|emptyCellErrors|cellErrorsOf)$/, "heatmap: cell errors"],
  [/^(poolJob|poolByMax|pooledGrid|poolShown)$/, "heatmap: pooling"],
  [/^(drawHeatmapBase|drawHeatmapOverlay)$/, "heatmap: drawing the canvas"],
  [/^(heatmapModel|legendModel|HeatmapLegend|ErrorHeatmap|useShownData)$/, "heatmap: model, legend, render"],
  [/^(rowView|maskTable|nonFiniteLesson)$/, "chart data (rowView, masks)"],
  [
    /^(ReturnsChart|ErrorChart|TokenPlot|linePath|linePoints|envelopeIndices|errorSeries|ChartFrame|TokenAxis|downsample.*|chartSeries.*)$/,
    "charts",
  ],
  [/^(RowEditor|LaneCanvas|drawLane|EditorToolbar)$/, "editor"],
  [/^(ControlsPanel|GammaControl|NumberEntry|ChunkSizeControl|Field)$/, "controls"],
  [/^(SummaryPanel|HoverReadout)$/, "summary panel"],
  [/^(ConventionPanel|useConventions|useConventionCompute|ConventionChart)$/, "conventions"],
  [/^(usePersistence|replaceAddress|saveSession|encode|packState)$/, "persistence (address, session)"],
  [/^(ContextParallelPanel)$/, "context-parallel panel"],
  [/^ResultsPanel$/, "results panel (other)"],
  [/^(PlaygroundView|usePlaygroundCompute|usePlaygroundStore)$/, "playground view (other)"],
  [
    /^(prepareProblem|prepareChecked|float32Batch|toFloat32|checkFiniteBatch|tdResiduals)$/,
    "engine: validate, to float32",
  ],
  [/^(checkEngineOutputs|checkRow|residualsOfRow)$/, "engine: output check"],
  [/^(readBack)$/, "engine: read back"],
  [/^(discountKernels|powerKernels|chunkEndKernel|chunkEndPowers)$/, "engine: kernels"],
  [/^(tensor2d|InputUploads)$/, "engine: upload"],
  [/^(discountedScan|chunkedScan|twoLevelScan|localScan|gaeScan|perTokenScan|fusedScan.*)$/, "engine: scan (tf ops)"],
  [/^(ownArrays|ownership)$/, "engine: copies for transfer"],
  [/^(outputErrorBounds)$/, "core: error bounds"],
  [/^(solve)$/, "core: solve"],
];

function stepOf(node: ProfileNode, nodes: Map<number, ProfileNode>): string {
  const leaf = node.callFrame.functionName;
  if (leaf === "(program)") return "native (style, layout, paint, messages…)";
  if (leaf === "(garbage collector)") return "garbage collection";
  if (leaf === "(idle)") return "(idle)";
  let react = false;
  let comlink = false;
  let recharts = false;
  for (let n: ProfileNode | undefined = node; n; n = n.parent !== undefined ? nodes.get(n.parent) : undefined) {
    const name = n.callFrame.functionName ?? "";
    for (const [pattern, step] of STEPS) if (pattern.test(name)) return step;
    if (/\/index[-.][^/]*js$|react-dom/.test(n.callFrame.url ?? "")) react = true;
    // Recharts lands in the chunk Rollup names after useWidth (the charts' shared chunk).
    if (/\/useWidth[-.][^/]*js$|recharts/.test(n.callFrame.url ?? "")) recharts = true;
    if (
      /comlink/i.test(n.callFrame.url ?? "") ||
      /^(toWireValue|fromWireValue|requestResponseMessage|createProxy)$/.test(name)
    )
      comlink = true;
  }
  if (comlink) return "comlink messages";
  if (recharts) return "recharts (store, axes, grid)";
  if (react) return "React (render, commit)";
  return `other: ${leaf || "(anonymous)"} ${base(node.callFrame.url)}`;
}

/** An edit's window; `pid`, a cold visit's renderer (each fresh context may get its own). */
type Window = { eventAt: number; engineMs: number; firstMs: number; pid?: number };

/** Cold first visits of `/`, each in a fresh context, traced from navigation to the first result. */
async function recordColdVisits(): Promise<{ events: TraceEvent[]; windows: Window[] }> {
  const server = await startServer();
  const browser = await launchChromium();
  const events: TraceEvent[] = [];
  const windows: Window[] = [];
  try {
    for (let rep = 0; rep < Number(options.repeats); rep++) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      await page.addInitScript(PROBE_SCRIPT);
      const start = events.length;
      let t: Awaited<ReturnType<typeof timing>> | null = null;
      events.push(
        ...(await recordTrace(page, CATEGORIES, async () => {
          await page.goto(`${ORIGIN}/`);
          t = await timing(page);
        })),
      );
      const done = t as Awaited<ReturnType<typeof timing>> | null;
      // The window's start on the trace's clock: this visit's navigation, marked as a bench:edit.
      const nav = events.slice(start).find((e) => e.name === "navigationStart");
      if (!done || !nav) throw new Error(`cold visit ${rep + 1}: no result or no navigationStart in the trace`);
      windows.push({ eventAt: 0, engineMs: done.engineMs, firstMs: done.firstMs, pid: nav.pid });
      events.push({ ...nav, name: "bench:edit", cat: "blink.user_timing" });
      await context.close();
    }
    return { events, windows };
  } finally {
    await browser.close();
    stopServer(server);
  }
}

/** Opens the batch and traces the edits. */
async function record(): Promise<{ events: TraceEvent[]; windows: Window[] }> {
  if (options.cold) return recordColdVisits();
  const server = await startServer();
  const browser = await launchChromium();
  try {
    const state = {
      ...BASE_SETTINGS,
      estimator: edit.gaeOnly ? ("gae" as const) : ("discounted" as const),
      backend,
      data: { source: "preset" as const, preset: "dense" as const, seed: 7, rows, tokens, ragged: false },
    };
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.addInitScript(PROBE_SCRIPT);
    await page.goto(`${ORIGIN}/?s=${encodeState(state)}`);
    await timing(page);
    const gae = edit.gaeOnly === true;
    await settle(page, gae ? 0 : null, 1500);
    const repeats = Number(options.repeats);
    const windows: Window[] = [];
    const events = await recordTrace(page, CATEGORIES, async () => {
      for (let rep = 0; rep < repeats; rep++) {
        await edit.prepare?.(page);
        const conventions = gae ? await conventionRuns(page) : null;
        await arm(page, edit.trigger(rep));
        await edit.act(page, rep, edit.gaeOnly ? "gae" : "discounted");
        const t = await timing(page);
        const eventAt = await page.evaluate(
          () => (window as unknown as { __uiProbe: { eventAt: number } }).__uiProbe.eventAt,
        );
        windows.push({ eventAt, engineMs: t.engineMs, firstMs: t.firstMs });
        await settle(page, conventions, 1500);
      }
    });
    return { events, windows };
  } finally {
    await browser.close();
    stopServer(server);
  }
}

const rows = Number(options.rows);
const tokens = Number(options.tokens);
const { events, windows } = options.read
  ? (JSON.parse(readFileSync(options.read, "utf8")) as { events: TraceEvent[]; windows: Window[] })
  : await record();
if (options.trace && !options.read) writeFileSync(options.trace, JSON.stringify({ events, windows }));
{
  // Page clock → trace clock: the probe's marks (bench:edit at the capture listener) are in both.
  const names = new Map<string, string>();
  for (const e of events) if (e.name === "thread_name" && e.args?.name) names.set(key(e), e.args.name);
  const marks = events
    .filter((e) => e.name === "bench:edit" && e.cat?.includes("user_timing"))
    .sort((a, b) => a.ts - b.ts);
  const samples = samplesOf(events);
  // Label each worker thread by the script its samples run most.
  const scripts = new Map<string, Map<string, number>>();
  for (const s of samples) {
    const url = s.node.callFrame.url ?? "";
    if (!/assets\//.test(url)) continue;
    const m = scripts.get(s.thread) ?? new Map<string, number>();
    m.set(base(url), (m.get(base(url)) ?? 0) + 1);
    scripts.set(s.thread, m);
  }
  const label = (thread: string) => {
    const name = names.get(thread) ?? thread;
    if (name !== "DedicatedWorker thread") return name;
    const top = [...(scripts.get(thread) ?? new Map()).entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? "?";
    return `worker (${top})`;
  };
  const main = [...names.entries()]
    .filter(([, n]) => n === "CrRendererMain")
    .map(([k]) => k)
    .sort((a, b) => samples.filter((s) => s.thread === b).length - samples.filter((s) => s.thread === a).length)[0];
  const mainPid = main?.split(":")[0];
  console.log(
    `Profile: ${rows} × ${tokens}, ${backend}, ${edit.label}, ${windows.length} edits, ${cpus().length} CPUs, load average ${loadavg()
      .map((x) => x.toFixed(1))
      .join(", ")}`,
  );
  const top = Number(options.top);
  const perThreadAll = new Map<string, { wall: number; cpu: number; tasks: number }>();
  const selfAll = new Map<string, number>();
  const ownAll = new Map<string, number>();
  const stepsAll = new Map<string, Map<string, number>>();
  for (const [i, w] of windows.entries()) {
    const mark = marks[i];
    if (!mark) {
      console.log(`edit ${i}: no bench:edit mark in the trace`);
      continue;
    }
    const from = mark.ts;
    const to = from + w.engineMs * 1000;
    console.log(
      `\n### edit ${i + 1}: engine result drawn at ${w.engineMs.toFixed(0)} ms (first redraw ${w.firstMs.toFixed(0)} ms)`,
    );
    const tasks = events.filter(
      (e) =>
        e.ph === "X" &&
        e.name === "ThreadControllerImpl::RunTask" &&
        e.ts < to &&
        e.ts + (e.dur ?? 0) > from &&
        e.pid === (w.pid ?? Number(mainPid)),
    );
    const perThread = new Map<string, { wall: number; cpu: number; tasks: number }>();
    for (const t of tasks) {
      const k = label(key(t));
      const v = perThread.get(k) ?? { wall: 0, cpu: 0, tasks: 0 };
      v.wall += (t.dur ?? 0) / 1000;
      v.cpu += (t.tdur ?? 0) / 1000;
      v.tasks++;
      perThread.set(k, v);
      const all = perThreadAll.get(k) ?? { wall: 0, cpu: 0, tasks: 0 };
      all.wall += (t.dur ?? 0) / 1000;
      all.cpu += (t.tdur ?? 0) / 1000;
      all.tasks++;
      perThreadAll.set(k, all);
    }
    console.log("| thread | tasks | wall | CPU |\n| --- | --- | --- | --- |");
    for (const [k, v] of [...perThread.entries()].sort((a, b) => b[1].cpu - a[1].cpu)) {
      console.log(`| ${k} | ${v.tasks} | ${v.wall.toFixed(1)} ms | ${v.cpu.toFixed(1)} ms |`);
    }
    if (options.timeline) {
      for (const t of tasks.sort((a, b) => a.ts - b.ts)) {
        if ((t.dur ?? 0) < 1000) continue;
        const inTask = samples.filter((s) => s.thread === key(t) && s.ts >= t.ts && s.ts <= t.ts + (t.dur ?? 0));
        const counts = new Map<string, number>();
        for (const s of inTask) {
          const n = stepOf(s.node, s.nodes);
          if (n !== "(idle)") counts.set(n, (counts.get(n) ?? 0) + 1);
        }
        const what = [...counts.entries()]
          .sort((a, b) => b[1] - a[1])
          .slice(0, 3)
          .map(([n, c]) => `${n} ×${c}`)
          .join(", ");
        const detail = Number(options.detail ?? Number.POSITIVE_INFINITY);
        if ((t.tdur ?? 0) / 1000 >= detail) {
          const leaves = new Map<string, number>();
          for (const s of inTask) {
            const { self, own } = frameName(s.node, s.nodes);
            const k = `${self} ← ${own}`;
            leaves.set(k, (leaves.get(k) ?? 0) + 1);
          }
          const lines = [...leaves.entries()].sort((a, b) => b[1] - a[1]).slice(0, 12);
          for (const [k, c] of lines) console.log(`            ×${String(c).padEnd(4)} ${k}`);
        }
        console.log(
          `  ${((t.ts - from) / 1000).toFixed(1).padStart(7)} ms  ${label(key(t)).padEnd(28)} ${((t.dur ?? 0) / 1000).toFixed(1).padStart(6)} ms wall ${((t.tdur ?? 0) / 1000).toFixed(1).padStart(6)} ms CPU  ${what}`,
        );
      }
    }
    // Each thread's CPU time in the window, shared among its steps as its non-idle samples are.
    const counts = new Map<string, Map<string, number>>();
    for (const s of samples) {
      if (s.ts < from || s.ts > to || !s.thread.startsWith(`${w.pid ?? mainPid}:`)) continue;
      const step = stepOf(s.node, s.nodes);
      if (step === "(idle)") continue;
      const m = counts.get(label(s.thread)) ?? new Map<string, number>();
      m.set(step, (m.get(step) ?? 0) + 1);
      counts.set(label(s.thread), m);
    }
    for (const [thread, m] of counts) {
      const total = [...m.values()].reduce((a, b) => a + b, 0);
      const cpu = perThread.get(thread)?.cpu ?? 0;
      const all = stepsAll.get(thread) ?? new Map<string, number>();
      for (const [step, c] of m) all.set(step, (all.get(step) ?? 0) + (cpu * c) / total);
      stepsAll.set(thread, all);
    }
    for (const s of samples) {
      if (s.ts < from || s.ts > to || !s.thread.startsWith(`${w.pid ?? mainPid}:`)) continue;
      const { self, own } = frameName(s.node, s.nodes);
      const k = `${label(s.thread)} · ${self}`;
      selfAll.set(k, (selfAll.get(k) ?? 0) + 1);
      const o = `${label(s.thread)} · ${own}`;
      ownAll.set(o, (ownAll.get(o) ?? 0) + 1);
    }
  }
  // Sampling interval: the median gap between a thread's samples.
  const gaps: number[] = [];
  for (let i = 1; i < samples.length; i++) {
    if (samples[i].thread === samples[i - 1].thread) gaps.push(samples[i].ts - samples[i - 1].ts);
  }
  gaps.sort((a, b) => a - b);
  const interval = (gaps[Math.floor(gaps.length / 2)] ?? 1000) / 1000;
  console.log(`\n## per edit, mean of ${windows.length} (renderer threads; samples every ~${interval.toFixed(2)} ms)`);
  console.log("| thread | tasks | wall | CPU |\n| --- | --- | --- | --- |");
  for (const [k, v] of [...perThreadAll.entries()].sort((a, b) => b[1].cpu - a[1].cpu)) {
    const n = windows.length;
    console.log(
      `| ${k} | ${(v.tasks / n).toFixed(0)} | ${(v.wall / n).toFixed(1)} ms | ${(v.cpu / n).toFixed(1)} ms |`,
    );
  }
  const print = (title: string, m: Map<string, number>) => {
    console.log(`\n## ${title} (ms per edit, from samples)`);
    for (const [k, c] of [...m.entries()].sort((a, b) => b[1] - a[1]).slice(0, top)) {
      console.log(`${((c * interval) / windows.length).toFixed(1).padStart(7)}  ${k}`);
    }
  };
  console.log("\n## CPU time per edit by step (each thread's CPU time, shared as its samples are)");
  for (const [thread, m] of [...stepsAll.entries()].sort(
    (a, b) => (perThreadAll.get(b[0])?.cpu ?? 0) - (perThreadAll.get(a[0])?.cpu ?? 0),
  )) {
    const cpu = (perThreadAll.get(thread)?.cpu ?? 0) / windows.length;
    if (cpu < 1) continue;
    console.log(`\n${thread}: ${cpu.toFixed(1)} ms CPU per edit`);
    for (const [step, v] of [...m.entries()].sort((a, b) => b[1] - a[1])) {
      if (v / windows.length >= 0.3) console.log(`${(v / windows.length).toFixed(1).padStart(7)}  ${step}`);
    }
  }
  print("self time by function", selfAll);
  print("time by innermost function of our own code", ownAll);
}
