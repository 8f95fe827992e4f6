import { DEBIAN_TORCH_AVX2, torchCarryPower } from "../../../core";
import { MAX_CHUNK_SIZE } from "../../../io/playgroundState";

/** Discounts worth a slider stop: horizons of 10, 20, 100, 200 and 1000 tokens, and no discount. */
export const GAMMA_STOPS = [0.9, 0.95, 0.99, 0.995, 0.999, 1] as const;

/** The slider stop nearest to γ (the slider shows stops; the exact value sits in the entry beside it). */
export function nearestStop(gamma: number): number {
  let best = 0;
  for (let i = 1; i < GAMMA_STOPS.length; i++) {
    if (Math.abs(GAMMA_STOPS[i] - gamma) < Math.abs(GAMMA_STOPS[best] - gamma)) best = i;
  }
  return best;
}

/** The effective horizon 1/(1 − γ) in tokens; Infinity for γ ≥ 1 (no discount). */
export function horizon(gamma: number): number {
  return gamma >= 1 ? Number.POSITIVE_INFINITY : 1 / (1 - gamma);
}

/**
 * d^C as the float32 scan computes it: torch's CPU float32 power of fl32(d) (core's
 * discountPowers, the carry power of the last position in a chunk). 0 here means every carry
 * across a chunk boundary vanishes in float32.
 */
export function float32ChunkPower(discount: number, chunkSize: number): number {
  return torchCarryPower(discount, chunkSize, DEBIAN_TORCH_AVX2);
}

/** True when d^C is 0 in float32 although it is not 0 in exact arithmetic. */
export function chunkPowerUnderflows(discount: number, chunkSize: number): boolean {
  return discount !== 0 && float32ChunkPower(discount, chunkSize) === 0;
}

/** The powers of two a chunk-size stepper walks: 1, 2, 4, … up to the playground's limit. */
export function nextPowerOfTwo(chunkSize: number, direction: 1 | -1): number {
  const exponent = Math.log2(Math.max(1, chunkSize));
  const next = direction > 0 ? Math.floor(exponent) + 1 : Math.ceil(exponent) - 1;
  return 2 ** Math.min(Math.max(next, 0), Math.log2(MAX_CHUNK_SIZE));
}

export type Parsed = { ok: true; value: number } | { ok: false; reason: string };

/** A chunk size typed by hand: a whole number from 1 to the limit, else the reason, never a clamp. */
export function parseChunkSize(text: string): Parsed {
  const trimmed = text.trim();
  if (trimmed === "") return { ok: false, reason: "chunk size is empty; type a whole number such as 128" };
  const value = Number(trimmed);
  if (!Number.isFinite(value)) return { ok: false, reason: `chunk size "${trimmed}" is not a number` };
  if (!Number.isInteger(value)) return { ok: false, reason: `chunk size ${trimmed} is not a whole number` };
  if (value < 1) return { ok: false, reason: `chunk size ${trimmed} is below 1; a chunk holds at least one token` };
  if (value > MAX_CHUNK_SIZE) {
    return {
      ok: false,
      reason: `chunk size ${trimmed} is above the playground's largest, ${MAX_CHUNK_SIZE} (a C×C kernel per chunk)`,
    };
  }
  return { ok: true, value };
}
