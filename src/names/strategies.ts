import type { ScanAlgorithm } from "../core";

/** The ways the engine can run the discounted-return scan on tensors; all give the same math. */
export const STRATEGIES = ["per-token", "chunked", "two-level", "fused"] as const;

export type Strategy = (typeof STRATEGIES)[number];

/** Strategies that run only on one backend: a hand-written kernel exists for that backend alone. */
export const STRATEGY_BACKEND: Partial<Record<Strategy, string>> = { fused: "webgpu" };

/** The strategies a backend can run, in menu order: the portable ones everywhere, fused on webgpu only. */
export function strategiesFor(backend: string): readonly Strategy[] {
  return STRATEGIES.filter((s) => runsOn(s, backend));
}

/** Whether `strategy` can run on `backend` (`tf.getBackend()`'s name). */
export function runsOn(strategy: Strategy, backend: string): boolean {
  const only = STRATEGY_BACKEND[strategy];
  return only === undefined || only === backend;
}

/** What runs when `strategy` is asked for on `backend`: itself, or chunked where its kernel is not written for it. */
export function strategyOn(strategy: Strategy, backend: string): { strategy: Strategy; replaced: boolean } {
  if (runsOn(strategy, backend)) return { strategy, replaced: false };
  return { strategy: "chunked", replaced: true };
}

/**
 * How each strategy combines chunks, which sets the error bound its results are held to. Both
 * layouts of the fused kernel are covered by the serial loop's bound (docs/ERROR_BOUND.md,
 * "The fused kernel").
 */
export const STRATEGY_ALGORITHM: Record<Strategy, ScanAlgorithm> = {
  "per-token": "serial",
  chunked: "chunked",
  "two-level": "two-level",
  fused: "serial",
};
