/**
 * `npm run bench:dump -- FILE.pt …`: `scanlab dump FILE` to its verdict, as a user runs it (a fresh
 * node, started as bin/scanlab.mjs's first line starts it, start-up included), with its peak resident
 * memory, beside the floor measured in the same run: reading the file's bytes once from the page cache, and a plain float64
 * loop over its response tokens (G = r + γ·G, one multiply-add per token). The issue's aim is the
 * verdict within 10× of that floor. Each argument is a file, a run directory (`scanlab dump DIR`),
 * or the name of an input bench/dumpInputs.ts writes from TypeScript into the temp directory
 * (ppo512 ≈ 196 MB, big1024 ≈ 1.5 GB, run50 = 50 steps × 20 MB); none is committed. `--flags`
 * gives the command the settings the inputs were written with (else it reads them off the
 * numbers, the slower path). Beside the wall time it reports the command's CPU time (user + system,
 * every thread: the figure to compare on a loaded machine) and, for a run directory, when its first
 * step's row was printed. `--tree DIR` times another checkout's `scanlab` (a worktree of the code
 * before) on the same inputs, to alternate before and after. It asserts nothing: it reports, and
 * `--json OUT` keeps the figures.
 *
 *   npm run bench:dump -- ppo512 run50 big1024
 */
import { spawn } from "node:child_process";
import { closeSync, openSync, readdirSync, readFileSync, readSync, statSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { basename, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { openFileSource } from "../src/cli/fileSource";
import { openDump } from "../src/io/slimeDump";
import { DUMP_INPUT_FLAGS, DUMP_INPUT_NAMES, type DumpInputName, ensureDumpInput } from "./dumpInputs";

const { values: options, positionals: files } = parseArgs({
  allowPositionals: true,
  options: {
    repeats: { type: "string", default: "3" },
    json: { type: "string" },
    flags: { type: "boolean" },
    // Another checkout's `scanlab` (a worktree of the code before), timed by this bench: before and after alternated.
    tree: { type: "string", default: "." },
  },
});
const REPEATS = Number(options.repeats);
if (files.length === 0 || !(REPEATS > 0))
  throw new Error("usage: bench:dump FILE.pt|DIR|ppo512|big1024|run50 … [--repeats N] [--flags] [--json OUT]");

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** Reads the whole file once in 16 MiB reads (after a first read has put it in the page cache). */
function readOnce(path: string): number {
  const fd = openSync(path, "r");
  const buffer = new Uint8Array(16 * 2 ** 20);
  const t0 = performance.now();
  let at = 0;
  for (;;) {
    const n = readSync(fd, buffer, 0, buffer.length, at);
    if (n === 0) break;
    at += n;
  }
  const ms = performance.now() - t0;
  closeSync(fd);
  return ms;
}

/** The float64 serial scan over `tokens` values: the arithmetic the replay cannot do without. */
function scanLoop(tokens: number): number {
  const rewards = new Float64Array(tokens).fill(0.5);
  const out = new Float64Array(tokens);
  const t0 = performance.now();
  let g = 0;
  for (let t = tokens - 1; t >= 0; t--) {
    g = rewards[t] + 0.99 * g;
    out[t] = g;
  }
  const ms = performance.now() - t0;
  if (!Number.isFinite(out[0])) throw new Error("unreachable");
  return ms;
}

/** The dump files of a run directory (its train_data/ and rollout_data/), or the file itself. */
function dumpFiles(path: string): string[] {
  if (!statSync(path).isDirectory()) return [path];
  return ["train_data", "rollout_data"].flatMap((sub) => {
    const dir = join(path, sub);
    try {
      return readdirSync(dir)
        .filter((f) => f.endsWith(".pt"))
        .map((f) => join(dir, f));
    } catch {
      return [];
    }
  });
}

/**
 * What the command's first line starts node with (`#!/usr/bin/env -S NAME=VALUE… node --flag…`): the
 * variables, `${NAME}` expanded as env does, and node's flags. The bench adds `--import` for the peak
 * RSS, so it cannot run the line itself; read from the checkout timed, a `--tree` of older code is
 * measured as it ran.
 */
function shebangLaunch(bin: string): { env: Record<string, string>; nodeFlags: string[] } {
  const first = readFileSync(bin, "utf8").split("\n", 1)[0];
  const words = first.replace(/^#!\S*env -S /, "").split(/\s+/);
  const node = words.indexOf("node");
  if (node < 0) throw new Error(`${bin}: its first line does not start node: ${first}`);
  const env: Record<string, string> = {};
  for (const word of words.slice(0, node)) {
    const [name, ...value] = word.split("=");
    env[name] = value.join("=").replace(/\$\{(\w+)\}/g, (_, v: string) => process.env[v] ?? "");
  }
  return { env, nodeFlags: words.slice(node + 1) };
}

/**
 * One `scanlab dump`: its wall time, peak RSS and CPU time (user + system, all threads), and for a
 * run directory the time from the start to its first step's row on standard output (a row starts
 * with the step's number; the title and header come before any step is read).
 */
async function runCommand(
  path: string,
): Promise<{ ms: number; firstStepMs: number | null; rssMb: number; cpuMs: number; status: number | null }> {
  const t0 = performance.now();
  const flags = options.flags ? DUMP_INPUT_FLAGS : [];
  const reportRss = fileURLToPath(new URL("./reportRss.mjs", import.meta.url));
  const launch = shebangLaunch(join(options.tree, "bin/scanlab.mjs"));
  const args = [...launch.nodeFlags, "--import", reportRss, "bin/scanlab.mjs", "dump", path, ...flags];
  const env = { ...process.env, ...launch.env };
  const child = spawn(process.execPath, args, { cwd: options.tree, env, stdio: ["ignore", "pipe", "pipe"] });
  let firstStepMs: number | null = null;
  let stdoutTail = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    if (firstStepMs !== null) return;
    stdoutTail += chunk;
    if (/^\d+ /m.test(stdoutTail)) firstStepMs = performance.now() - t0;
    else stdoutTail = stdoutTail.slice(-200);
  });
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  const status = await new Promise<number | null>((resolve) => child.on("close", resolve));
  const ms = performance.now() - t0;
  const rss = /SCANLAB_BENCH_MAX_RSS_KB (\d+)/.exec(stderr);
  const cpu = /SCANLAB_BENCH_CPU_US (\d+)/.exec(stderr);
  if (!rss || !cpu) throw new Error(`scanlab dump ${path} said: ${stderr.slice(0, 500)}`);
  return { ms, firstStepMs, rssMb: Number(rss[1]) / 1024, cpuMs: Number(cpu[1]) / 1000, status };
}

const rows: Record<string, unknown>[] = [];
console.log(`${cpus().length} cores (${cpus()[0]?.model}), load ${loadavg()[0].toFixed(1)}`);
for (const given of files) {
  let path = (DUMP_INPUT_NAMES as string[]).includes(given)
    ? (await ensureDumpInput(given as DumpInputName, (line) => console.log(`  writing ${line}`))).path
    : given;
  const parts = dumpFiles(path);
  const bytes = parts.reduce((n, f) => n + statSync(f).size, 0);
  let samples = 0;
  let tokens = 0;
  for (const part of parts) {
    const source = openFileSource(part, basename(part));
    const opened = openDump(source);
    source.close();
    if (!opened.ok) throw new Error(opened.error.message);
    samples += opened.value.dump.samples.length;
    tokens += opened.value.dump.samples.reduce((n, s) => n + s.responseLength, 0);
  }
  const readAll = () => parts.reduce((ms, part) => ms + readOnce(part), 0);
  readAll();
  path = resolve(path);
  const runs: Awaited<ReturnType<typeof runCommand>>[] = [];
  for (let k = 0; k < REPEATS; k++) runs.push(await runCommand(path));
  const read = median(Array.from({ length: REPEATS }, readAll));
  const loop = median(Array.from({ length: REPEATS }, () => scanLoop(tokens)));
  const wall = median(runs.map((r) => r.ms));
  const rss = median(runs.map((r) => r.rssMb));
  const cpu = median(runs.map((r) => r.cpuMs));
  const firstStep =
    !statSync(path).isDirectory() || runs[0].firstStepMs === null ? null : median(runs.map((r) => r.firstStepMs ?? 0));
  const floor = read + loop;
  const row = {
    file: basename(path),
    files: parts.length,
    megabytes: bytes / 1e6,
    samples,
    tokens,
    exitStatus: runs[0].status,
    commandMs: wall,
    peakRssMb: rss,
    cpuMs: cpu,
    firstStepMs: firstStep,
    floorReadMs: read,
    floorLoopMs: loop,
    timesFloor: wall / floor,
    megabytesPerSecond: bytes / 1e3 / wall,
    megabytesPerCpuSecond: bytes / 1e3 / cpu,
  };
  rows.push(row);
  console.log(
    `${row.file}: ${parts.length} file(s), ${row.megabytes.toFixed(0)} MB, ${samples} samples, ${tokens} tokens, exit ${row.exitStatus}\n` +
      `  scanlab dump${options.flags ? " (with the flags)" : ""}: ${wall.toFixed(0)} ms wall (median of ${REPEATS}), ${row.megabytesPerSecond.toFixed(0)} MB/s, peak RSS ${rss.toFixed(0)} MB\n` +
      `  CPU ${cpu.toFixed(0)} ms (user + system, median): ${row.megabytesPerCpuSecond.toFixed(0)} MB per CPU second` +
      `${firstStep === null ? "" : `; first step's row at ${firstStep.toFixed(0)} ms`}\n` +
      `  floor: read once ${read.toFixed(0)} ms + float64 loop ${loop.toFixed(0)} ms = ${floor.toFixed(0)} ms; the command is ${row.timesFloor.toFixed(1)}× the floor`,
  );
}
if (options.json) writeFileSync(options.json, JSON.stringify(rows, null, 2));
