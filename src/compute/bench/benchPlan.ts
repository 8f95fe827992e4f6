import { BACKENDS, type BackendName } from "../../names/backends";
import { STRATEGIES, STRATEGY_ALGORITHM, type Strategy, strategiesFor } from "../../names/strategies";

/**
 * What one benchmark run measures, shared by `npm run bench` (which hands it to the page) and the
 * panel at `/?view=bench`. Plain data, so it crosses to the bench worker and back unchanged.
 */

/** The plain JavaScript typed-array loop, measured beside the engine's strategies in the same worker. */
export const JS_LOOP = "js-loop" as const;
export type BenchStrategy = Strategy | typeof JS_LOOP;
export const BENCH_STRATEGIES: readonly BenchStrategy[] = [...STRATEGIES, JS_LOOP];

/** The JS loop runs on no tfjs backend; its rows carry this name. */
export const NO_BACKEND = "js" as const;
export type BenchBackend = BackendName | typeof NO_BACKEND;

export interface BenchSize {
  rows: number;
  cols: number;
}

export interface BenchPlan {
  backends: BackendName[];
  strategies: BenchStrategy[];
  sizes: BenchSize[];
  /** Timed runs per row after the warm-up; the row's time is their median. */
  reps: number;
  chunkSize: number;
  discount: number;
  /** Seed of the N(0, 1) rewards, rounded to float32. */
  seed: number;
  /** Also time every chunk size of `sweep.chunkSizes` at `sweep.size`, per backend and strategy. */
  sweep?: { size: BenchSize; chunkSizes: number[] };
  /** Per-token rows estimated to take longer than this in all (warm-up and runs) are skipped with a note. */
  skipOverMs: number;
}

export const MIN_REPS = 5;
export const SWEEP_CHUNKS = [8, 16, 32, 64, 128, 256, 512, 1024];

export const FULL_PLAN: BenchPlan = {
  backends: [...BACKENDS],
  strategies: [...BENCH_STRATEGIES],
  sizes: [
    { rows: 1, cols: 1024 },
    { rows: 8, cols: 4096 },
    { rows: 64, cols: 32768 },
  ],
  reps: MIN_REPS,
  chunkSize: 128,
  discount: 0.99,
  seed: 7,
  skipOverMs: 60_000,
};

/** What CI runs to prove the harness works: one small size, two backends, every strategy. */
export const QUICK_PLAN: BenchPlan = {
  ...FULL_PLAN,
  backends: ["wasm", "webgpu"],
  sizes: [{ rows: 1, cols: 1024 }],
};

export const DEFAULT_SWEEP_SIZE: BenchSize = { rows: 8, cols: 4096 };

export function sizeLabel(size: BenchSize): string {
  return `${size.rows}×${size.cols}`;
}

/** One row of the benchmark: a strategy on a backend at one size and chunk size. */
export interface BenchCase {
  backend: BenchBackend;
  strategy: BenchStrategy;
  size: BenchSize;
  chunkSize: number;
  /** True for a point of the chunk-size sweep. */
  sweep: boolean;
}

/**
 * Every case of a plan in the order they run: backend by backend (switching backends costs an
 * initialisation), size by size, per-token first (the others' speedups refer to it); the JS loop
 * once per size, before the backends. Strategies a backend does not offer are left out.
 */
export function planCases(plan: BenchPlan): BenchCase[] {
  const cases: BenchCase[] = [];
  const wanted = (s: BenchStrategy) => plan.strategies.includes(s);
  if (wanted(JS_LOOP)) {
    for (const size of plan.sizes) {
      cases.push({ backend: NO_BACKEND, strategy: JS_LOOP, size, chunkSize: plan.chunkSize, sweep: false });
    }
  }
  for (const backend of plan.backends) {
    const offered = strategiesFor(backend).filter(wanted);
    for (const size of plan.sizes) {
      for (const strategy of offered) cases.push({ backend, strategy, size, chunkSize: plan.chunkSize, sweep: false });
    }
    if (plan.sweep) {
      for (const strategy of offered.filter(usesChunks)) {
        for (const chunkSize of plan.sweep.chunkSizes) {
          cases.push({ backend, strategy, size: plan.sweep.size, chunkSize, sweep: true });
        }
      }
    }
  }
  return cases;
}

/** Whether the chunk size enters a strategy at all: per-token and the fused kernel scan serially. */
export function usesChunks(strategy: BenchStrategy): boolean {
  return strategy !== JS_LOOP && STRATEGY_ALGORITHM[strategy] !== "serial";
}

export function caseLabel(c: BenchCase): string {
  const what = c.strategy === JS_LOOP ? "plain JS loop" : `${c.backend} ${c.strategy}`;
  return `${what} at ${sizeLabel(c.size)}${c.sweep ? `, C = ${c.chunkSize}` : ""}`;
}

/**
 * The plan's cases in the groups they are timed in: the batched strategies of one backend at one
 * size (chunked, two-level, fused) side by side, their samples taken in turn, so a burst of load
 * on a shared machine slows them alike instead of deciding which of them looks faster; every other
 * case alone (per-token, with its skip estimate and minutes of runs; the JS loop; each sweep point).
 */
export function sideBySideGroups(cases: readonly BenchCase[]): BenchCase[][] {
  const groups: BenchCase[][] = [];
  const together = (c: BenchCase) => c.backend !== NO_BACKEND && c.strategy !== "per-token" && !c.sweep;
  for (const c of cases) {
    const last = groups[groups.length - 1]?.[0];
    const joins =
      last !== undefined &&
      together(c) &&
      together(last) &&
      last.backend === c.backend &&
      sizeLabel(last.size) === sizeLabel(c.size) &&
      last.chunkSize === c.chunkSize;
    if (joins) groups[groups.length - 1].push(c);
    else groups.push([c]);
  }
  return groups;
}
