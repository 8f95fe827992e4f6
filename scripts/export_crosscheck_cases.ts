/**
 * Writes case files with Scanlab's own export code, for scripts/slime_crosscheck.py to replay
 * through slime's real functions (see docs/torch-powers.md):
 *     npx tsx scripts/export_crosscheck_cases.ts OUT_DIR
 * Playground exports (exportCase, the page's "export case" button) for several presets, chunk
 * sizes and discounts, plus caseBuilder cases over a grid of discounts and chunk sizes.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ScanProblem } from "../src/core";
import { buildCase, buildCaseFile } from "../src/io/caseBuilder";
import { exportCase } from "../src/io/caseExport";
import type { PlaygroundState } from "../src/io/playgroundState";
import { BASE_SETTINGS } from "../src/io/presets";

const out = process.argv[2] ?? "crosscheck-cases";
mkdirSync(out, { recursive: true });

let seed = 12345;
function random(): number {
  // xorshift32: reproducible inputs without numpy
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return (seed >>> 0) / 2 ** 32;
}
const normal = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
const batch = (rows: number, cols: number) => ({
  rows,
  cols,
  data: Float64Array.from({ length: rows * cols }, normal),
});

let written = 0;
const playground: Array<[string, PlaygroundState]> = [];
for (const estimator of ["discounted", "gae", "reinforce_pp"] as const) {
  for (const [preset, chunkSize, gamma] of [
    ["dense", 64, 0.99],
    ["sparse", 1, 0.9],
    ["multi-turn", 37, 0.995],
    ["dense", 300, 0.97],
  ] as const) {
    const state = {
      ...BASE_SETTINGS,
      estimator,
      chunkSize,
      gamma,
      lambd: 0.95,
      klCoef: 0.05,
      data: { source: "preset", preset, seed: 7 + chunkSize, rows: 3, tokens: 700, ragged: true },
    } as PlaygroundState;
    playground.push([`pg_${estimator}_${preset}_C${chunkSize}_g${gamma}`, state]);
  }
}
for (const [name, state] of playground) {
  const result = exportCase(state, name);
  if (!result.ok) throw result.error;
  writeFileSync(join(out, `${name}.json`), result.value.text);
  written++;
}

const cases = [];
for (const discount of [0.99, 0.9, 0.9405, 0.97 * 0.9, 0.5495936876730595, 0.3, 0.999, 1, 0.5]) {
  for (const chunkSize of [1, 4, 16, 37, 100, 128, 256, 257]) {
    const problem: ScanProblem = { kind: "discounted", rewards: batch(2, 600), discount, chunkSize };
    cases.push(buildCase(problem, `disc_d${discount}_C${chunkSize}`));
  }
}
for (const [gamma, lambd, chunkSize] of [
  [0.99, 0.95, 128],
  [0.99, 0.95, 37],
  [1, 0.9, 64],
  [0.995, 0.97, 300],
] as const) {
  const problem: ScanProblem = {
    kind: "gae",
    rewards: batch(3, 500),
    values: batch(3, 500),
    gamma,
    lambd,
    chunkSize,
  };
  cases.push(buildCase(problem, `gae_g${gamma}_l${lambd}_C${chunkSize}`));
}
writeFileSync(join(out, "built_grid.json"), `${JSON.stringify(buildCaseFile(cases, "crosscheck grid"))}\n`);
written++;
console.log(`${written} files (${playground.length} playground exports, ${cases.length} built cases) in ${out}`);
