/**
 * `npm run bench`: the scan measured in headless Chromium, every backend and strategy side by side.
 * Builds the app (SCANLAB_OUT_DIR, default dist-bench), serves it with `vite preview`
 * (SCANLAB_BENCH_PORT, default 4397) and opens `/?view=bench`; the page measures in its bench worker
 * (src/ui/bench/measure) and this script only hands it the plan and prints what comes back. Figures
 * are printed, never asserted. The exit status is 1 when the harness broke or a result was wrong
 * (beyond its error bound) or leaked tensors, never because of a time. `--help` lists the options.
 */
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { parseBenchArgs, USAGE } from "../src/compute/bench/benchArgs";
import type { BenchReport } from "../src/compute/bench/benchClient";
import { sizeLabel } from "../src/compute/bench/benchPlan";
import { type BenchRow, leakedTensors } from "../src/compute/bench/benchResult";
import { markdownReport } from "../src/compute/bench/benchTable";
import { runNodeBench } from "./nodeBench";
import { launchChromium, ORIGIN, startServer, stopServer } from "./previewServer";

const parsed = parseBenchArgs(process.argv.slice(2));
if (!parsed.ok) {
  for (const e of parsed.errors) console.error(`bench: ${e}`);
  console.error("(npm run bench -- --help lists the options)");
  process.exit(2);
}
const { options } = parsed;
if (options.help) {
  console.log(USAGE);
  process.exit(0);
}
if (options.node) {
  await runNodeBench();
  process.exit(0);
}

const outDir = process.env.SCANLAB_OUT_DIR ?? "dist-bench";
const started = Date.now();
const seconds = () => `${((Date.now() - started) / 1000).toFixed(1)} s`;
const log = (line: string) => process.stderr.write(`${line}\n`);

log(`building the app into ${outDir}/ …`);
const build = spawnSync("npx", ["vite", "build"], {
  env: { ...process.env, SCANLAB_OUT_DIR: outDir },
  stdio: ["ignore", "pipe", "pipe"],
  encoding: "utf8",
});
if (build.status !== 0) {
  console.error(build.stdout, build.stderr);
  console.error(`bench: vite build failed (exit ${build.status})`);
  process.exit(1);
}

function rowLine(row: BenchRow): string {
  const what = row.strategy === "js-loop" ? "plain JS loop" : `${row.backend} ${row.strategy}`;
  const at = `${sizeLabel(row.size)}${row.sweep ? ` C=${row.chunkSize}` : ""}`;
  const time = row.medianMs === undefined ? row.status : `${row.medianMs.toPrecision(3)} ms ${row.status}`;
  return `  ${what} at ${at}: ${time}${row.note ? ` (${row.note})` : ""}`;
}

log(`serving it …  [${seconds()}]`);
const server = await startServer(outDir);
const browser = await launchChromium();
const pageErrors: string[] = [];
let report: BenchReport | undefined;
try {
  const page = await browser.newPage();
  page.on("pageerror", (e) => pageErrors.push(e.message));
  page.on("console", (m) => {
    if (m.type() === "error") pageErrors.push(m.text());
  });
  await page.exposeFunction("scanlabBenchOnRow", (row: BenchRow) => log(`${rowLine(row)}  [${seconds()}]`));
  await page.goto(`${ORIGIN}/?view=bench`);
  await page.waitForFunction(() => window.scanlabBench !== undefined, null, { timeout: 60_000 });
  log(`measuring in ${ORIGIN}/?view=bench …  [${seconds()}]`);
  report = await page.evaluate((plan) => {
    const bench = window.scanlabBench;
    if (!bench) throw new Error("the benchmark panel did not load");
    return bench.run(plan);
  }, options.plan);
} finally {
  const version = browser.version();
  await browser.close();
  stopServer(server);
  if (report) print(report, version);
}

function print(r: BenchReport, chromium: string): void {
  const { plan, environment } = r;
  const load = loadavg()
    .map((x) => x.toFixed(1))
    .join(", ");
  console.log(
    `Headless Chromium ${chromium}, ${cpus().length} CPUs (load average ${load}); WebGPU adapter: ${environment.adapter}.`,
  );
  console.log(
    `γ = ${plan.discount}, ${plan.sweep ? `C = ${plan.sweep.chunkSizes.join(", ")} at ${sizeLabel(plan.sweep.size)}` : `C = ${plan.chunkSize}`}, ` +
      `N(0,1) rewards (seed ${plan.seed}); runProblem end to end, ` +
      `one warm-up run excluded, median of ${plan.reps} runs, every run checked against the float64 serial reference.`,
  );
  console.log("");
  for (const line of markdownReport(r.rows)) console.log(line);
  console.log("");
  console.log(`${r.rows.length} of ${r.planned} rows in ${seconds()}.`);
  if (options.json) {
    const machine = { cpus: cpus().length, loadAverage: loadavg(), chromium, node: process.version, ...environment };
    const rows = r.rows.map(({ timesMs, ...rest }) => ({ ...rest, timesMs }));
    writeFileSync(
      options.json,
      `${JSON.stringify({ date: new Date().toISOString(), machine, plan, rows }, null, 2)}\n`,
    );
    console.log(`Wrote ${rows.length} rows to ${options.json}.`);
  }
}

const problems = [
  ...pageErrors.map((e) => `page error: ${e}`),
  ...(report?.error ? [`the run stopped: ${report.error}`] : []),
  ...(report?.rows ?? [])
    .filter((row) => row.status === "wrong" || row.status === "failed" || leakedTensors(row) !== 0)
    .map((row) => `${rowLine(row).trim()}${leakedTensors(row) ? `, ${leakedTensors(row)} tensors leaked` : ""}`),
];
if (!report) problems.push("no results came back from the page");
if (problems.length > 0) {
  for (const p of problems) console.error(`bench: ${p}`);
  process.exit(1);
}
