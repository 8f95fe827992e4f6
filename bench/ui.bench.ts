/**
 * `npm run bench:ui`: how long the playground makes its user wait. It serves the built page (run
 * `npm run build` first; SCANLAB_OUT_DIR picks another build folder, SCANLAB_BENCH_PORT the port)
 * with `vite preview`, drives it in headless Chromium (SCANLAB_CHROMIUM, with the flags of
 * playwright.config.ts) and prints markdown tables of:
 *
 * - each edit (γ typed + Enter, a γ slider step, a λ slider step on GAE, a chunk-size step, a
 *   stroke in the editor) at each size and backend: input event → the first redraw, and → the
 *   engine's result drawn, median and p95, in the page's own clock (bench/ui/probe.ts), with the
 *   longest main-thread task of the edit (and at large sizes its CPU time, from a trace);
 * - the compute floor of each size: a plain float32 loop `G = r + γ·G` over the batch, in the page;
 * - opening each batch, and a cold first visit (a fresh browser context: navigation → first result
 *   drawn, and → the engine's result);
 * - the entry chunk's gzip size (index.html's module script and its module preloads), against 150 kB.
 *
 * Figures are printed, never asserted. Options: `--sizes 4x300,16x8192` (rows × tokens, dense
 * preset), `--backends wasm,webgpu`, `--edits gamma-typed,gamma-slider,lambda-slider,chunk-step,stroke`,
 * `--repeats N` (default 10 at sizes up to 65,536 tokens, 5 above), `--cold N` (first visits per
 * backend, default 5; 0 skips them), `--strategy chunked|two-level|fused|per-token` (the engine's, for
 * the edits; default chunked, slime's), `--json FILE` (every sample).
 */
import { execSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { parseArgs } from "node:util";
import type { Browser, Page } from "@playwright/test";
import type { Estimator, PlaygroundState } from "../src/io/playgroundState";
import { BASE_SETTINGS, DEFAULT_PLAYGROUND_STATE } from "../src/io/presets";
import { encodeState } from "../src/io/shareLink";
import { STRATEGIES, type Strategy } from "../src/names/strategies";
import type { Step } from "../src/ui/stepMarks";
import { launchChromium, ORIGIN, OUT_DIR, startServer, stopServer } from "./previewServer";
import { conventionRuns, EDIT_IDS, EDITS, type Edit, type EditId, settle } from "./ui/edits";
import { computeFloorMs, entryChunk } from "./ui/floors";
import { arm, PROBE_SCRIPT, type Timing, timing } from "./ui/probe";
import { fineMs, median, ms, p95, table } from "./ui/stats";
import { taskCpuIf } from "./ui/taskCpu";

type Backend = "wasm" | "webgpu";

const { values: options } = parseArgs({
  options: {
    sizes: { type: "string", default: "4x300,16x8192" },
    backends: { type: "string", default: "wasm,webgpu" },
    edits: { type: "string", default: EDIT_IDS.join(",") },
    repeats: { type: "string" },
    cold: { type: "string", default: "5" },
    strategy: { type: "string", default: "chunked" },
    estimator: { type: "string", default: "discounted" },
    json: { type: "string" },
  },
});
const SIZES = options.sizes.split(",").map((s) => {
  const [rows, tokens] = s.split("x").map(Number);
  if (!(rows > 0 && tokens > 0)) throw new Error(`--sizes: ${s} is not ROWSxTOKENS`);
  return { rows, tokens, name: `${rows} × ${tokens}` };
});
const BACKENDS = options.backends.split(",") as Backend[];
const EDIT_LIST = options.edits.split(",") as EditId[];
const COLD = Number(options.cold);
const STRATEGY = options.strategy as Strategy;
const ESTIMATOR = options.estimator as Estimator;
if (!["discounted", "gae", "reinforce_pp"].includes(ESTIMATOR)) throw new Error(`--estimator: ${ESTIMATOR}`);
if (!STRATEGIES.includes(STRATEGY)) throw new Error(`--strategy: ${STRATEGY} (${STRATEGIES.join(", ")})`);
for (const b of BACKENDS) if (b !== "wasm" && b !== "webgpu") throw new Error(`--backends: ${b} (wasm, webgpu)`);
for (const e of EDIT_LIST) if (!EDIT_IDS.includes(e)) throw new Error(`--edits: ${e} (${EDIT_IDS.join(", ")})`);
if (!(COLD >= 0)) throw new Error("--cold N: first visits per backend, 0 or more");
/** Sizes above this many tokens in all are large: fewer repeats, a longer pause, each task's CPU time traced. */
const LARGE = 2 ** 16;
const VIEWPORT = { width: 1280, height: 800 };

function repeatsAt(cells: number): number {
  if (options.repeats !== undefined) return Math.max(1, Number(options.repeats));
  return cells > LARGE ? 5 : 10;
}

function benchState(estimator: Estimator, backend: Backend, rows: number, tokens: number): PlaygroundState {
  return {
    ...BASE_SETTINGS,
    estimator,
    backend,
    strategy: STRATEGY,
    data: { source: "preset", preset: "dense", seed: 7, rows, tokens, ragged: false },
  };
}

const load1 = () => loadavg()[0];
const ESTIMATOR_NAMES: Record<Estimator, string> = {
  discounted: "discounted",
  gae: "GAE",
  reinforce_pp: "REINFORCE++",
};

/** The samples of one row of the tables. */
interface Row {
  size: string;
  backend: string;
  what: string;
  load: number;
  timings: Timing[];
  /** CPU time of the longest main-thread task of each sample (large sizes), else empty. */
  cpuMs: number[];
}

/** Opens a page on a state and times it (navigation → results), the backend checked. */
async function open(browser: Browser, state: PlaygroundState, traced: boolean) {
  const page = await browser.newPage({ viewport: VIEWPORT });
  await page.addInitScript(PROBE_SCRIPT);
  let opening: Timing | undefined;
  const body = async () => {
    await page.goto(`${ORIGIN}/?s=${encodeState(state)}`);
    opening = await timing(page);
  };
  const cpu = await taskCpuIf(traced, page, body);
  const ran = await page.getByTestId("backend").textContent();
  if (ran !== state.backend) console.warn(`asked for ${state.backend}, the engine ran on ${ran}`);
  return { page, opening: opening as Timing, cpu };
}

/** Makes each edit of `edits` `repeats` times, interleaved, on an open page; one Row per edit. */
async function runEdits(
  page: Page,
  estimator: Estimator,
  edits: Edit[],
  repeats: number,
  traced: boolean,
  base: Omit<Row, "what" | "timings" | "cpuMs">,
) {
  const rows = edits.map((edit): Row => ({ ...base, what: edit.label, timings: [], cpuMs: [] }));
  // GAE and REINFORCE++ pages have the library conventions too: the next edit waits for them.
  const gae = estimator !== "discounted";
  const quiet = traced ? 1000 : 300;
  await settle(page, gae ? 0 : null, quiet);
  for (let rep = 0; rep < repeats; rep++) {
    for (const [i, edit] of edits.entries()) {
      await edit.prepare?.(page);
      const conventions = gae ? await conventionRuns(page) : null;
      await arm(page, edit.trigger(rep));
      let t: Timing | undefined;
      const body = async () => {
        await edit.act(page, rep, estimator);
        t = await timing(page);
      };
      const cpu = await taskCpuIf(traced, page, body);
      rows[i].timings.push(t as Timing);
      if (traced) rows[i].cpuMs.push(cpu);
      await settle(page, conventions, quiet);
    }
  }
  return rows;
}

/** The steps of the "where the time went" table, in order, with their column names. */
const STEP_COLUMNS: [Step, string][] = [
  ["core-result-ready", "core's result"],
  ["core-result-drawn", "core's drawn"],
  ["engine-asked", "asked"],
  ["engine-answered", "answered"],
  ["result-ready", "result ready"],
  ["returns-drawn", "returns chart"],
  ["error-drawn", "error chart"],
  ["heatmap-drawn", "heatmap"],
  ["all-drawn", "all drawn"],
];

const bigSize = new Set(SIZES.filter((s) => s.rows * s.tokens > LARGE).map((s) => s.name));

/** A cold first visit: a fresh context (no cache, no stored session), navigation → results. */
async function coldVisit(browser: Browser, backend: Backend): Promise<Timing> {
  const context = await browser.newContext({ viewport: VIEWPORT });
  try {
    const page = await context.newPage();
    await page.addInitScript(PROBE_SCRIPT);
    // The webgpu visit is the real first one: `/`, whose backend is auto (webgpu first).
    const url =
      backend === "webgpu" ? `${ORIGIN}/` : `${ORIGIN}/?s=${encodeState({ ...DEFAULT_PLAYGROUND_STATE, backend })}`;
    await page.goto(url);
    const t = await timing(page);
    const ran = await page.getByTestId("backend").textContent();
    if (ran !== backend) console.warn(`first visit: expected ${backend}, the engine ran on ${ran}`);
    return t;
  } finally {
    await context.close();
  }
}

function commit(): string {
  try {
    const head = execSync("git rev-parse --short HEAD", { encoding: "utf8" }).trim();
    const dirty = execSync("git status --porcelain --untracked-files=no", { encoding: "utf8" }).trim() !== "";
    return dirty ? `${head} + uncommitted changes` : head;
  } catch {
    return "unknown";
  }
}

const server = await startServer();
const browser = await launchChromium();
const loadStart = loadavg();
const started = Date.now();
try {
  const entry = entryChunk(OUT_DIR);
  const editRows: Row[] = [];
  const openingRows: Row[] = [];
  const floors = new Map<string, number>();
  const edits = EDIT_LIST.map((id) => EDITS[id]);
  for (const size of SIZES) {
    const cells = size.rows * size.tokens;
    const traced = cells > LARGE;
    const repeats = repeatsAt(cells);
    for (const backend of BACKENDS) {
      // The edits on a page of the estimator asked for, then λ's on a GAE page (the same page for GAE).
      const pages = [...new Set<Estimator>([ESTIMATOR, ...(edits.some((e) => e.gaeOnly) ? (["gae"] as const) : [])])];
      for (const estimator of pages) {
        const group = edits.filter((e) => (e.gaeOnly ? estimator === "gae" : estimator === ESTIMATOR));
        if (group.length === 0) continue;
        const load = load1();
        const { page, opening, cpu } = await open(
          browser,
          benchState(estimator, backend, size.rows, size.tokens),
          traced,
        );
        const what = `opening the batch${estimator === "discounted" ? "" : ` (${ESTIMATOR_NAMES[estimator]})`}`;
        openingRows.push({ size: size.name, backend, what, load, timings: [opening], cpuMs: traced ? [cpu] : [] });
        if (!floors.has(size.name)) {
          await settle(page, estimator === "discounted" ? null : 0, 300);
          floors.set(size.name, await computeFloorMs(page, size.rows, size.tokens));
        }
        const base = { size: size.name, backend, load };
        editRows.push(...(await runEdits(page, estimator, group, repeats, traced, base)));
        await page.close();
      }
    }
  }
  for (const backend of COLD > 0 ? BACKENDS : []) {
    const load = load1();
    const timings: Timing[] = [];
    for (let i = 0; i < COLD; i++) timings.push(await coldVisit(browser, backend));
    const what = backend === "webgpu" ? "cold first visit, / (auto: webgpu)" : `cold first visit, ${backend}`;
    openingRows.push({ size: "4 × 300 (the first example)", backend, what, load, timings, cpuMs: [] });
  }

  const fmtLoad = (l: number[]) => l.map((x) => x.toFixed(1)).join(", ");
  const noDrawn = [...editRows, ...openingRows].some((r) => r.timings.some((t) => !t.hasDrawn));
  console.log(
    `## bench:ui, ${new Date().toISOString().slice(0, 10)}, commit ${commit()}, ${OUT_DIR}/, ${ESTIMATOR_NAMES[ESTIMATOR]}, strategy ${STRATEGY}, Chromium ${browser.version()}, ` +
      `${cpus().length} CPUs, load average ${fmtLoad(loadStart)} at the start, ${fmtLoad(loadavg())} at the end ` +
      `(${Math.round((Date.now() - started) / 1000)} s)\n`,
  );
  const entryLine = entry.files.map((f) => `${f.name} ${(f.gzip / 1000).toFixed(1)} kB`).join(" + ");
  console.log(
    `Entry chunk: ${(entry.bytes / 1000).toFixed(0)} kB, **${(entry.gzip / 1000).toFixed(1)} kB gzip** (${entryLine}); ` +
      `target 150 kB gzip: ${entry.gzip <= 150_000 ? "met" : "over"}.\n`,
  );
  console.log(
    `Compute floor (a plain float32 loop G = r + γ·G over the batch, in the page, median): ${[...floors]
      .map(([size, floor]) => `${size}: ${fineMs(floor)}`)
      .join("; ")}.\n`,
  );
  if (noDrawn) {
    console.log(
      "This build has no `data-drawn` on the results: its first redraw is the engine's result (the same figure twice).\n",
    );
  }
  const sampleNote = (n: number) => (n <= 20 ? `${n}, p95 = worst` : `${n}`);
  console.log(
    "Edit → the frame after the first redraw, and → the frame after the engine's result is drawn (aria-busy false), " +
      "from the input event's timestamp, median / p95; the engine's own time for the run (in its worker, validation to read-back: the summary's run time), median; " +
      "longest main-thread task of the edit, median / worst (its CPU time, worst, at large sizes); load: 1-minute load average as the row began.\n",
  );
  console.log(
    table(
      [
        "size",
        "backend",
        "edit",
        "first redraw",
        "shown",
        "engine result",
        "engine's own",
        "longest task",
        "floor",
        "samples",
        "load",
      ],
      editRows.map((r) => {
        const first = r.timings.map((t) => t.firstMs);
        const engine = r.timings.map((t) => t.engineMs);
        const longest = r.timings.map((t) => t.longTasks[0] ?? 0);
        const sources = [...new Set(r.timings.map((t) => t.firstSource))].join(", ");
        const cpu = r.cpuMs.length > 0 ? ` (CPU ${Math.max(...r.cpuMs)})` : "";
        return [
          r.size,
          r.backend,
          r.what,
          `${ms(median(first))} / ${ms(p95(first))}`,
          sources,
          `${ms(median(engine))} / ${ms(p95(engine))}`,
          ms(median(r.timings.map((t) => t.runMs))),
          `${median(longest)} / ${Math.max(...longest)} ms${cpu}`,
          fineMs(floors.get(r.size) ?? Number.NaN),
          sampleNote(r.timings.length),
          r.load.toFixed(1),
        ];
      }),
    ),
  );
  console.log(
    "\nWhere an edit's time went: input event → each step the page marks (src/ui/stepMarks.ts), median. The chunked " +
      "side asked for and answered (on the main thread: the engine's worker, or core's worker at big sizes for core's " +
      "precisions), the final result ready (serial scans, bounds and summary done), then each part of the results " +
      "drawn with it (the returns chart's lines, the error chart's, the heatmap's canvas) and all of them (aria-busy false). " +
      "At teaching size the first redraw is core's result, drawn before the engine is asked.\n",
  );
  console.log(
    table(
      ["size", "backend", "edit", ...STEP_COLUMNS.map(([, label]) => label)],
      editRows.map((r) => [
        r.size,
        r.backend,
        r.what,
        ...STEP_COLUMNS.map(([step]) => {
          const times = r.timings.map((t) => t.steps[step]).filter((x): x is number => x !== undefined);
          return times.length === r.timings.length ? ms(median(times)) : "–";
        }),
      ]),
    ),
  );
  console.log(
    "\nOpening a batch (navigation in a warm browser) and cold first visits (a fresh context each): navigation → the frame after the first result drawn, and → after the engine's, median / p95; longest main-thread task.\n",
  );
  console.log(
    table(
      ["size", "backend", "visit", "first result", "engine result", "longest task", "samples", "load"],
      openingRows.map((r) => {
        const first = r.timings.map((t) => t.firstMs);
        const engine = r.timings.map((t) => t.engineMs);
        const longest = r.timings.map((t) => t.longTasks[0] ?? 0);
        const cpu = r.cpuMs.length > 0 ? ` (CPU ${Math.max(...r.cpuMs)})` : "";
        return [
          r.size,
          r.backend,
          r.what,
          `${ms(median(first))} / ${ms(p95(first))}`,
          `${ms(median(engine))} / ${ms(p95(engine))}`,
          `${Math.max(...longest)} ms${cpu}`,
          sampleNote(r.timings.length),
          r.load.toFixed(1),
        ];
      }),
    ),
  );
  const large = editRows.filter((r) => bigSize.has(r.size));
  if (large.length > 0) {
    const worst = Math.max(...large.flatMap((r) => r.timings.map((t) => t.longTasks[0] ?? 0)));
    console.log(`\nTarget: no main-thread task over 100 ms per edit at large sizes; longest: ${worst} ms.`);
  }
  if (options.json) {
    writeFileSync(
      options.json,
      JSON.stringify({ loadStart, loadEnd: loadavg(), entry, floors: [...floors], editRows, openingRows }, null, 1),
    );
  }
} finally {
  await browser.close();
  stopServer(server);
}
