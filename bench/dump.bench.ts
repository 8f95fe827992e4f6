/**
 * Parse and replay time of one slime train dump, as `scanlab dump` and the run view spend it:
 * readTensorFile (zip, pickle, storages), understandDump (fields to float64), replayDump
 * (float64 reference, float32 bounds, verdicts). The size is 64 samples of 8192 tokens
 * (~17 MB); make it with slime's own code (no file that large is committed):
 *
 *   scripts/dumps/setup_work.sh /path/to/slime      # once, in a scratch directory
 *   PYTHONPATH=dumps-work/shim:dumps-work/stubs:dumps-work/slime:scripts/dumps \
 *     /usr/bin/python3 scripts/dumps/make_fixtures.py /tmp/bigdump --big 64
 *   npx tsx bench/dump.bench.ts /tmp/bigdump/big_train.pt
 *
 * Without a file it times the largest committed dump. Settings: the big dump's own
 * (reinforce_plus_plus, γ 0.99, kl_coef 0.05, k1), or give `--ppo` for the shared ppo dump's.
 */
import { readFileSync } from "node:fs";
import { dumpSettings, readTensorFile, replayDump, understandDump } from "../src/io/slimeDump";

const file = process.argv.find((a) => a.endsWith(".pt")) ?? "cases/dumps/slime-shared/train_rpp_g099_kl005.pt";
const settings = process.argv.includes("--ppo")
  ? { advantageEstimator: "ppo" as const, gamma: 0.99, lambd: 0.95, klCoef: 0.02, normalizeAdvantages: true }
  : { advantageEstimator: "reinforce_plus_plus" as const, gamma: 0.99, klCoef: 0.05 };
const runs = 5;
const bytes = new Uint8Array(readFileSync(file));

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

const times = { read: [] as number[], understand: [] as number[], replay: [] as number[] };
let summary = "";
for (let i = 0; i < runs; i++) {
  const t0 = performance.now();
  const tree = readTensorFile(bytes, file);
  const t1 = performance.now();
  if (!tree.ok) throw tree.error;
  const dump = understandDump(tree.value.root, file);
  const t2 = performance.now();
  if (!dump.ok) throw dump.error;
  const result = replayDump(dump.value, dumpSettings(dump.value, settings));
  const t3 = performance.now();
  if (!result.ok) throw new Error(result.error);
  times.read.push(t1 - t0);
  times.understand.push(t2 - t1);
  times.replay.push(t3 - t2);
  const tokens = dump.value.samples.reduce((n, s) => n + s.responseLength, 0);
  summary = `${dump.value.samples.length} samples, ${tokens} tokens, ${result.samples.filter((s) => s.passed).length} within bound`;
}
const ms = (xs: number[]) => `${median(xs).toFixed(0)} ms`;
console.log(`${file}: ${(bytes.length / 2 ** 20).toFixed(1)} MiB, ${summary}`);
console.log(
  `median of ${runs}: read ${ms(times.read)}, understand ${ms(times.understand)}, replay ${ms(times.replay)} (first run: ${(times.read[0] + times.understand[0] + times.replay[0]).toFixed(0)} ms in all)`,
);
