import { BACKENDS } from "../../names/backends";
import {
  BENCH_STRATEGIES,
  type BenchPlan,
  type BenchSize,
  DEFAULT_SWEEP_SIZE,
  FULL_PLAN,
  MIN_REPS,
  QUICK_PLAN,
  SWEEP_CHUNKS,
} from "./benchPlan";

/** What `npm run bench -- …` asked for. */
export interface BenchOptions {
  plan: BenchPlan;
  /** Where to write the JSON rows, if anywhere. */
  json?: string;
  /** Node figures (core and the tfjs cpu backend in Node) instead of the browser. */
  node: boolean;
  help: boolean;
}

export const USAGE = `npm run bench -- [options]

Builds the app, serves it and measures the scan in headless Chromium, in a worker of the page.
  --backends LIST     tfjs backends, from ${BACKENDS.join(",")} (default: all)
  --strategies LIST   from ${BENCH_STRATEGIES.join(",")} (default: all the engine offers per backend)
  --sizes BxT,...     batch sizes (default: 1x1024,8x4096,64x32768)
  --reps N            timed runs per row, their median is reported (default and least: ${MIN_REPS})
  --chunk C           chunk size (default: 128)
  --sweep-chunk       time and max error against the chunk size instead, at one size (--sizes, default 8x4096)
  --chunks LIST       the chunk sizes of the sweep (default: ${SWEEP_CHUNKS.join(",")})
  --quick             wasm and webgpu at 1x1024 only: proves the harness works
  --json FILE         also write every row as JSON
  --node              the Node figures instead (core and the tfjs cpu backend, no browser)
  --help              this text`;

const MAX_ROWS = 1024;
const MAX_COLS = 65536;
const MAX_CELLS = 2 ** 24;
const MAX_CHUNK = 4096;

type Parsed = { ok: true; options: BenchOptions } | { ok: false; errors: string[] };

const FLAGS = new Set(["--quick", "--sweep-chunk", "--node", "--help"]);
const VALUED = new Set(["--backends", "--strategies", "--sizes", "--reps", "--chunk", "--chunks", "--json"]);

/** Reads the command line (after `--`); every problem is reported, naming the option and the value. */
export function parseBenchArgs(argv: readonly string[]): Parsed {
  const errors: string[] = [];
  const given = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const eq = arg.indexOf("=");
    const name = arg.startsWith("--") && eq > 0 ? arg.slice(0, eq) : arg;
    if (given.has(name)) {
      errors.push(`${name} is given twice`);
      continue;
    }
    if (FLAGS.has(name)) {
      if (eq > 0) errors.push(`${name} takes no value`);
      given.set(name, "");
    } else if (VALUED.has(name)) {
      const value = eq > 0 ? arg.slice(eq + 1) : argv[++i];
      if (value === undefined || value === "" || (eq < 0 && value.startsWith("--"))) {
        errors.push(`${name} needs a value`);
        if (value?.startsWith("--")) i--;
        continue;
      }
      given.set(name, value);
    } else {
      errors.push(`unknown option ${JSON.stringify(arg)} (--help lists them)`);
    }
  }

  const base = given.has("--quick") ? QUICK_PLAN : FULL_PLAN;
  const plan: BenchPlan = { ...base };
  const list = (name: string) => (given.get(name) ?? "").split(",").map((s) => s.trim());
  if (given.has("--backends")) plan.backends = oneOf(list("--backends"), BACKENDS, "--backends", errors);
  if (given.has("--strategies"))
    plan.strategies = oneOf(list("--strategies"), BENCH_STRATEGIES, "--strategies", errors);
  if (given.has("--sizes")) plan.sizes = list("--sizes").flatMap((s) => parseSize(s, errors));
  if (given.has("--reps")) plan.reps = wholeNumber(given.get("--reps") ?? "", "--reps", MIN_REPS, 1000, errors);
  if (given.has("--chunk")) plan.chunkSize = wholeNumber(given.get("--chunk") ?? "", "--chunk", 1, MAX_CHUNK, errors);
  if (given.has("--chunks") && !given.has("--sweep-chunk")) errors.push("--chunks only applies with --sweep-chunk");
  if (given.has("--sweep-chunk")) {
    if (plan.sizes.length > 1 && given.has("--sizes")) {
      errors.push(`--sweep-chunk times one size; --sizes gives ${plan.sizes.length}`);
    }
    const size = given.has("--sizes") ? (plan.sizes[0] ?? DEFAULT_SWEEP_SIZE) : DEFAULT_SWEEP_SIZE;
    const chunkSizes = given.has("--chunks")
      ? list("--chunks").map((c) => wholeNumber(c, "--chunks", 1, MAX_CHUNK, errors))
      : SWEEP_CHUNKS;
    plan.sweep = { size, chunkSizes: [...new Set(chunkSizes)].sort((a, b) => a - b) };
    plan.sizes = [];
  }
  if (errors.length > 0) return { ok: false, errors };
  const options: BenchOptions = { plan, node: given.has("--node"), help: given.has("--help") };
  const json = given.get("--json");
  if (json !== undefined) options.json = json;
  return { ok: true, options };
}

function oneOf<T extends string>(values: string[], allowed: readonly T[], option: string, errors: string[]): T[] {
  const out: T[] = [];
  for (const v of values) {
    if ((allowed as readonly string[]).includes(v)) {
      if (!out.includes(v as T)) out.push(v as T);
    } else {
      errors.push(`${option}: ${JSON.stringify(v)} is not one of ${allowed.join(", ")}`);
    }
  }
  return out;
}

/** `8x4096` (or `8×4096`): B rows of T tokens. */
export function parseSize(text: string, errors: string[]): BenchSize[] {
  const match = /^(\d+)[x×](\d+)$/.exec(text);
  if (!match) {
    errors.push(`--sizes: ${JSON.stringify(text)} is not BxT (rows x tokens, e.g. 8x4096)`);
    return [];
  }
  const rows = Number(match[1]);
  const cols = Number(match[2]);
  const where = `--sizes ${text}`;
  if (rows < 1 || rows > MAX_ROWS) errors.push(`${where}: rows must be 1 to ${MAX_ROWS}`);
  else if (cols < 1 || cols > MAX_COLS) errors.push(`${where}: tokens must be 1 to ${MAX_COLS}`);
  else if (rows * cols > MAX_CELLS) errors.push(`${where}: at most ${MAX_CELLS} values (2^24) in a batch`);
  else return [{ rows, cols }];
  return [];
}

function wholeNumber(text: string, option: string, min: number, max: number, errors: string[]): number {
  const n = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!(n >= min && n <= max)) {
    errors.push(`${option}: ${JSON.stringify(text)} must be a whole number from ${min} to ${max}`);
    return min;
  }
  return n;
}
