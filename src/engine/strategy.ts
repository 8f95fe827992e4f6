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
 * A strategy menu's entries: what the backend can run (`running`, or the one asked for while none
 * runs yet; `auto` asks for webgpu first), plus the chosen strategy if it is not among them, so the
 * menu never shows a choice other than the one in effect (the run then says why it cannot run).
 */
export function strategyMenu(running: string | null, requested: string, chosen: Strategy): readonly Strategy[] {
  const backend = running ?? (requested === "auto" ? "webgpu" : requested);
  const menu = strategiesFor(backend);
  return menu.includes(chosen) ? menu : STRATEGIES.filter((s) => menu.includes(s) || s === chosen);
}
