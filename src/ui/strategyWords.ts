/** What the page says about the engine's strategies: their labels, their menus and the notice of a replaced one. */
import type { EngineNotice } from "../engine/client";
import { STRATEGY_BACKEND, type Strategy, strategiesFor, strategyOn } from "../names/strategies";

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

/** The line the page shows for an engine notice: its own message, or which strategy runs in place of the one asked. */
export function noticeText(notice: EngineNotice): string {
  if (notice.type === "notice") return notice.message;
  const { asked, strategy, backend } = notice;
  return `${STRATEGY_INFO[asked].label} does not run on ${backend} (its kernel is written for ${STRATEGY_BACKEND[asked]} only): running ${STRATEGY_INFO[strategy].label} instead`;
}
