import { BACKENDS, type BackendName } from "../../names/backends";
import {
  BENCH_STRATEGIES,
  type BenchPlan,
  type BenchSize,
  type BenchStrategy,
  FULL_PLAN,
  MIN_REPS,
  SWEEP_CHUNKS,
  sizeLabel,
} from "./benchPlan";

/** What the panel's controls hold; `panelPlan` turns it into the plan the worker runs. */
export interface PanelSettings {
  backends: BackendName[];
  strategies: BenchStrategy[];
  /** Labels of PANEL_SIZES. */
  sizes: string[];
  reps: number;
  chunkSize: number;
  sweep: boolean;
  sweepSize: string;
}

export const PANEL_SIZES: BenchSize[] = FULL_PLAN.sizes;
export const PANEL_CHUNKS = SWEEP_CHUNKS;
/** In a visitor's browser a per-token row estimated over 20 s is skipped (the command allows 60 s). */
export const PANEL_SKIP_MS = 20_000;

export const DEFAULT_PANEL: PanelSettings = {
  backends: [...BACKENDS],
  strategies: [...BENCH_STRATEGIES],
  // The largest size takes minutes on a machine without a GPU: the visitor opts in.
  sizes: PANEL_SIZES.slice(0, 2).map(sizeLabel),
  reps: MIN_REPS,
  chunkSize: 128,
  sweep: false,
  sweepSize: sizeLabel({ rows: 8, cols: 4096 }),
};

/** Adds or removes one value of a multiple choice, keeping the order of `all`. */
export function toggled<T>(chosen: readonly T[], value: T, on: boolean, all: readonly T[]): T[] {
  return all.filter((v) => (v === value ? on : chosen.includes(v)));
}

/** The plan of the panel's settings, or what stops it from running, one line per problem. */
export function panelPlan(s: PanelSettings): { plan?: BenchPlan; problems: string[] } {
  const problems: string[] = [];
  const onlyLoop = s.strategies.length > 0 && s.strategies.every((x) => x === "js-loop");
  if (s.backends.length === 0 && !onlyLoop) problems.push("Choose at least one backend.");
  if (s.strategies.length === 0) problems.push("Choose at least one strategy.");
  if (s.sizes.length === 0 && !s.sweep) problems.push("Choose at least one size, or the chunk-size sweep.");
  if (!Number.isInteger(s.reps) || s.reps < MIN_REPS || s.reps > 100) {
    problems.push(`Runs per row must be a whole number from ${MIN_REPS} to 100.`);
  }
  const sweepSize = PANEL_SIZES.find((z) => sizeLabel(z) === s.sweepSize);
  if (s.sweep && !sweepSize) problems.push(`Unknown sweep size ${s.sweepSize}.`);
  if (problems.length > 0) return { problems };
  const plan: BenchPlan = {
    ...FULL_PLAN,
    backends: s.backends,
    strategies: s.strategies,
    sizes: PANEL_SIZES.filter((z) => s.sizes.includes(sizeLabel(z))),
    reps: s.reps,
    chunkSize: s.chunkSize,
    skipOverMs: PANEL_SKIP_MS,
    ...(s.sweep && sweepSize ? { sweep: { size: sweepSize, chunkSizes: PANEL_CHUNKS } } : {}),
  };
  return { plan, problems };
}
