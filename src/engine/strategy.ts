import type { ScanAlgorithm } from "../core";

/** The ways the engine can run the discounted-return scan on tensors; all give the same math. */
export const STRATEGIES = ["per-token", "chunked", "two-level"] as const;

export type Strategy = (typeof STRATEGIES)[number];

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
};

/** How each strategy combines chunks, which sets the error bound its results are held to. */
export const STRATEGY_ALGORITHM: Record<Strategy, ScanAlgorithm> = {
  "per-token": "serial",
  chunked: "chunked",
  "two-level": "two-level",
};
