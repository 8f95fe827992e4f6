/**
 * The big inputs of the dump benchmark (issue 28), written from TypeScript at bench time and never
 * committed: slime-like ppo train dumps (src/testing/ppoTrainDump.ts, torch 2's zip layout),
 * streamed to disk sample by sample.
 *
 *   npx tsx bench/dumpInputs.ts ppo512     # 512 samples, responses 1,018–16,013, prompt 512: ≈196 MB
 *   npx tsx bench/dumpInputs.ts big1024    # 1024 samples, responses up to 32,768, with entropy: ≈1.5 GB
 *   npx tsx bench/dumpInputs.ts run50      # a run directory: train_data/0.pt … 49.pt, ≈20 MB each
 *   npx tsx bench/dumpInputs.ts shared20000   # 20,000 samples of 1–4 tokens, each field one shared storage
 *                                             # (src/testing/flatTrainDump.ts; also shared60000, shared150000)
 *   … --check                              # also open each file with openDump and run checkDump
 *
 * Prints the path on stdout (the file, or for run50 the run directory holding train_data/), the
 * sizes and times on stderr. Files go to os.tmpdir()/scanlab-bench/<name>/ and are reused while
 * their parameters (and this generator's version) are the same.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { openFileSource } from "../src/cli/fileSource";
import { checkDump, openDump } from "../src/io/slimeDump";
import { manySamples, trainDumpBytes } from "../src/testing/flatTrainDump";
import { type PpoDumpParams, writePpoTrainDump } from "../src/testing/ppoTrainDump";
import { FileSink } from "../src/testing/torchZipWriter";

/** Bump when the generator's output changes, so a stale cache is written again. */
const GENERATOR_VERSION = 2;

export type DumpInputName = "ppo512" | "big1024" | "run50" | SharedInputName;
/** Many short samples whose fields are row views of one storage each: the cost is per sample, not per byte (issue 28, part 7). */
type SharedInputName = "shared20000" | "shared60000" | "shared150000";
const SHARED_INPUTS: Record<SharedInputName, number> = {
  shared20000: 20_000,
  shared60000: 60_000,
  shared150000: 150_000,
};
export const DUMP_INPUT_NAMES: DumpInputName[] = [
  "ppo512",
  "big1024",
  "run50",
  ...(Object.keys(SHARED_INPUTS) as SharedInputName[]),
];

/** The settings every generated dump was written with (slime's flags), for the bench's `scanlab dump` calls. */
export const DUMP_INPUT_SETTINGS = {
  advantageEstimator: "ppo",
  gamma: 1,
  lambd: 1,
  klCoef: 0.02,
  klLossType: "k1",
  normalizeAdvantages: true,
} as const;
export const DUMP_INPUT_FLAGS = [
  "--advantage-estimator",
  "ppo",
  "--gamma",
  "1",
  "--lambd",
  "1",
  "--kl-coef",
  "0.02",
  "--normalize-advantages",
];

const settings: Partial<PpoDumpParams> = {
  gamma: DUMP_INPUT_SETTINGS.gamma,
  lambd: DUMP_INPUT_SETTINGS.lambd,
  klCoef: DUMP_INPUT_SETTINGS.klCoef,
  normalizeAdvantages: DUMP_INPUT_SETTINGS.normalizeAdvantages,
};

/** Each input's files (relative to its directory) and the parameters of each. */
function plan(name: DumpInputName): { file: string; stem: string; params: Partial<PpoDumpParams> }[] {
  if (name === "ppo512") {
    const params = {
      ...settings,
      samples: 512,
      promptLength: 512,
      responseMin: 1018,
      responseMax: 16013,
      truncatedShare: 0.03,
      seed: 512,
    };
    return [{ file: "ppo512.pt", stem: "ppo512", params }];
  }
  if (name === "big1024") {
    const params = {
      ...settings,
      samples: 1024,
      promptLength: 1024,
      responseMin: 24000,
      responseMax: 32768,
      truncatedShare: 0.33,
      entropy: true,
      seed: 1024,
    };
    return [{ file: "big1024.pt", stem: "big1024", params }];
  }
  // A run whose reward climbs and whose policy drifts from the reference, step by step.
  return Array.from({ length: 50 }, (_, step) => ({
    file: `train_data/${step}.pt`,
    stem: String(step),
    params: {
      ...settings,
      samples: 64,
      promptLength: 512,
      responseMin: 1018,
      responseMax: 12800,
      truncatedShare: 0.05,
      rewardRate: 0.2 + (0.5 * step) / 49,
      klScale: 0.02 + (0.06 * step) / 49,
      rolloutId: step,
      seed: 5000 + step,
    },
  }));
}

export interface DumpInput {
  name: DumpInputName;
  /** The file (ppo512, big1024) or the run directory holding train_data/ (run50). */
  path: string;
  files: string[];
  bytes: number;
  /** Seconds spent writing; 0 when the cached files were reused. */
  seconds: number;
  reused: boolean;
}

/** The input `name`, written into os.tmpdir()/scanlab-bench/<name>/ unless it is there already. */
export async function ensureDumpInput(name: DumpInputName, log = (_: string) => {}): Promise<DumpInput> {
  const dir = join(tmpdir(), "scanlab-bench", name);
  if (name in SHARED_INPUTS) return sharedInput(name as SharedInputName, dir);
  const files = plan(name);
  const stamp = JSON.stringify({ version: GENERATOR_VERSION, files });
  const stampPath = join(dir, "params.json");
  const paths = files.map((f) => join(dir, f.file));
  const path = name === "run50" ? dir : paths[0];
  const have = existsSync(stampPath) && readFileSync(stampPath, "utf8") === stamp && paths.every((p) => existsSync(p));
  if (have) {
    const bytes = paths.reduce((n, p) => n + statSync(p).size, 0);
    return { name, path, files: paths, bytes, seconds: 0, reused: true };
  }
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(name === "run50" ? join(dir, "train_data") : dir, { recursive: true });
  const t0 = performance.now();
  let bytes = 0;
  for (const [k, f] of files.entries()) {
    const sink = new FileSink(paths[k]);
    try {
      const summary = await writePpoTrainDump(sink, f.params, f.stem);
      sink.close();
      bytes += summary.bytes;
      if (files.length === 1 || k % 10 === 0)
        log(
          `${f.file}: ${mb(summary.bytes)}, ${summary.samples} samples, ${summary.responseTokens} response tokens (${summary.minResponse}–${summary.maxResponse})`,
        );
    } catch (e) {
      sink.abandon();
      throw e;
    }
  }
  const seconds = (performance.now() - t0) / 1000;
  writeFileSync(stampPath, stamp);
  return { name, path, files: paths, bytes, seconds, reused: false };
}

/** A shared-storage dump of many short samples: small (a few MB), written in memory. */
async function sharedInput(name: SharedInputName, dir: string): Promise<DumpInput> {
  const count = SHARED_INPUTS[name];
  const path = join(dir, `${name}.pt`);
  const stampPath = join(dir, "params.json");
  const stamp = JSON.stringify({ version: GENERATOR_VERSION, count, lengths: "1 + i % 4" });
  if (existsSync(stampPath) && readFileSync(stampPath, "utf8") === stamp && existsSync(path))
    return { name, path, files: [path], bytes: statSync(path).size, seconds: 0, reused: true };
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const t0 = performance.now();
  const bytes = await trainDumpBytes(manySamples(count, (i) => 1 + (i % 4)));
  writeFileSync(path, bytes);
  writeFileSync(stampPath, stamp);
  return { name, path, files: [path], bytes: bytes.length, seconds: (performance.now() - t0) / 1000, reused: false };
}

/** openDump + checkDump of one generated file under the settings it was written with. */
export function checkDumpInput(file: string): { passed: boolean; words: string } {
  const source = openFileSource(file, file.split("/").slice(-2).join("/"));
  try {
    const opened = openDump(source);
    if (!opened.ok) return { passed: false, words: opened.error.message };
    const check = checkDump(opened.value.dump, DUMP_INPUT_SETTINGS);
    const stages = check.stages.map((s) => `${s.stage} ${s.status}`).join(", ");
    const bits = check.bits ? `, returns bit-identical ${check.bits.identical}/${check.bits.compared}` : "";
    return { passed: check.passed, words: `${check.passed ? "passed" : "FAILED"}: ${stages}${bits}` };
  } finally {
    source.close();
  }
}

function mb(bytes: number): string {
  return `${(bytes / 1e6).toFixed(1)} MB`;
}

async function main() {
  const args = process.argv.slice(2);
  const names = args.filter((a) => !a.startsWith("--"));
  const unknown = names.filter((n) => !DUMP_INPUT_NAMES.includes(n as DumpInputName));
  if (names.length === 0 || unknown.length > 0) {
    console.error(`usage: npx tsx bench/dumpInputs.ts ${DUMP_INPUT_NAMES.join("|")} [--check]`);
    process.exit(2);
  }
  let failed = false;
  for (const name of names as DumpInputName[]) {
    const input = await ensureDumpInput(name, (line) => console.error(line));
    const how = input.reused ? "reused" : `written in ${input.seconds.toFixed(1)} s`;
    console.error(`${name}: ${input.files.length} file(s), ${mb(input.bytes)}, ${how}`);
    console.log(input.path);
    if (args.includes("--check")) {
      for (const file of input.files) {
        const t0 = performance.now();
        const verdict = checkDumpInput(file);
        failed ||= !verdict.passed;
        console.error(`check ${file}: ${verdict.words} (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
      }
    }
  }
  if (failed) process.exit(1);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) await main();
