/**
 * `npm run bench -- --node`: the figures that need no browser. Wall time of core's serial and
 * chunked scans in plain TypeScript and of the engine on the tfjs cpu backend, in Node, for B rows
 * of N(0,1) rewards, γ = 0.99, C = 128. Median of several runs after one warm-up; nothing here is a
 * test, and no figure can fail a build. The browser backends are measured in the page (the default).
 */
import "@tensorflow/tfjs-backend-cpu";
import * as tf from "@tensorflow/tfjs-core";
import { chunkedDiscountedReturns, serialDiscountedReturns } from "../src/core";
import { normals, seededRandom } from "../src/core/testRandom";
import { runProblem } from "../src/engine/runProblem";
import { strategiesFor } from "../src/names/strategies";

const B = 8;
const LENGTHS = [1024, 8192, 65536];
const REPEATS = 5;

async function median(run: () => unknown | Promise<unknown>): Promise<number> {
  await run();
  const times: number[] = [];
  for (let i = 0; i < REPEATS; i++) {
    const start = performance.now();
    await run();
    times.push(performance.now() - start);
  }
  return times.sort((a, b) => a - b)[Math.floor(REPEATS / 2)];
}

export async function runNodeBench(): Promise<void> {
  tf.env().set("IS_TEST", true);
  await tf.setBackend("cpu");
  const rows: string[][] = [["implementation", ...LENGTHS.map((T) => `T = ${T}`)]];
  const cells = new Map<string, string[]>();
  const record = (name: string, ms: number | null) => {
    const row = cells.get(name) ?? [];
    row.push(ms === null ? "-" : `${ms.toFixed(1)} ms`);
    cells.set(name, row);
  };

  for (const T of LENGTHS) {
    const data = normals(seededRandom(T), B * T);
    const f64 = { rows: B, cols: T, data };
    const f32 = { rows: B, cols: T, data: Float32Array.from(data) };
    record("core serial float64", await median(() => serialDiscountedReturns(f64, 0.99)));
    record("core serial float32", await median(() => serialDiscountedReturns(f32, 0.99)));
    record("core chunked float64", await median(() => chunkedDiscountedReturns(f64, 0.99)));
    record("core chunked float32", await median(() => chunkedDiscountedReturns(f32, 0.99)));
    for (const strategy of strategiesFor("cpu")) {
      // Per-token is O(T) tensor ops: past 8192 tokens it only shows what the others avoid.
      const skip = strategy === "per-token" && T > 8192;
      const problem = { kind: "discounted" as const, rewards: f32, discount: 0.99, chunkSize: 128 };
      record(`tfjs cpu ${strategy}`, skip ? null : await median(() => runProblem(problem, strategy)));
    }
    process.stderr.write(`T = ${T} done\n`);
  }
  for (const [name, row] of cells) rows.push([name, ...row]);
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  console.log(`B = ${B}, γ = 0.99, C = 128, median of ${REPEATS} runs, node ${process.version}\n`);
  for (const r of rows)
    console.log(r.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join("  "));
}
