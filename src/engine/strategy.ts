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

/** Shown beside the strategy picker: what each one dispatches, so the timings make sense. */
export const STRATEGY_INFO: Record<Strategy, { label: string; description: string }> = {
  "per-token": {
    label: "Per-token",
    description: "The loop slime replaced: G = r + γ·G, one small chain of tensor ops per token (T dispatches).",
  },
  chunked: {
    label: "Chunked",
    description:
      "slime's scan: every chunk's local scan in one matMul, then a carry loop over the chunks (T/C dispatches).",
  },
  "two-level": {
    label: "Two-level",
    description:
      "The local scans in one matMul, then all carries at once as a second scan over the chunk ends (fixed dispatches).",
  },
  fused: {
    label: "Fused (WebGPU)",
    description:
      "One hand-written WGSL kernel for the whole scan (one dispatch): each row a serial loop with vec4 loads, or, " +
      "for few long rows on a real GPU, serial segments per lane joined by their carries. WebGPU only.",
  },
};

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

/**
 * A strategy menu's entries and the entry shown: what the backend can run (`running`, or the one
 * asked for while none runs yet), and the strategy in effect there: the one chosen, or the one the
 * engine runs instead (strategyOn). Only while `auto` has not settled on a backend does the choice
 * stay shown as it is, since webgpu may still come up.
 */
export function strategyMenu(
  running: string | null,
  requested: string,
  chosen: Strategy,
): { options: readonly Strategy[]; value: Strategy } {
  const backend = running ?? (requested === "auto" ? "webgpu" : requested);
  const options = strategiesFor(backend);
  if (options.includes(chosen)) return { options, value: chosen };
  return { options, value: strategyOn(chosen, backend).strategy };
}

/** What runs when `strategy` is asked for on `backend`: itself, or chunked with a notice naming both. */
export function strategyOn(strategy: Strategy, backend: string): { strategy: Strategy; notice: string | null } {
  if (runsOn(strategy, backend)) return { strategy, notice: null };
  const fallback: Strategy = "chunked";
  return {
    strategy: fallback,
    notice: `${STRATEGY_INFO[strategy].label} does not run on ${backend} (its kernel is written for ${STRATEGY_BACKEND[strategy]} only): running ${STRATEGY_INFO[fallback].label} instead`,
  };
}
