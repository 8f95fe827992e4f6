import type { ReplaySample, SlimeSettings } from "../settings";
import type { KnownVariant } from "./knownVariant";
import { isScanEstimator, scanDiscount, withScan } from "./scanVariant";
import { paddedLengths } from "./variantInputs";
import { type CarryRule, chunkedRowScan } from "./variantScans";

/** slime's `chunked_discounted_returns` default (not configurable from its callers). */
const CHUNK_SIZE = 128;

/**
 * A broken carry between the 128-token chunks of slime's chunked scan (PR #2205's algorithm): a
 * carry only exists when some data-parallel rank's padded batch is longer than one chunk, and it
 * only changes anything when the discount is not 0 (and, for the mis-powered one, not 1, where
 * d^k = d^(k+1)).
 */
function chunkCarryVariant(rule: Exclude<CarryRule, "exact">, id: string, title: string): KnownVariant {
  return {
    id,
    title,
    source: "BUGS.md, on slime PR #2205's chunked scan",
    stage: "returns",
    applies(samples: ReplaySample[], settings: SlimeSettings) {
      if (!isScanEstimator(settings)) return false;
      if (settings.advantageEstimator === "ppo" && samples.some((s) => !s.values)) return false;
      const d = scanDiscount(settings);
      if (d === 0 || (rule === "mispowered" && d === 1)) return false;
      return paddedLengths(samples).some((n) => n > CHUNK_SIZE);
    },
    reference(samples, settings) {
      const padded = paddedLengths(samples);
      return withScan(samples, settings, (i) => (row, d) => chunkedRowScan(row, d, padded[i], rule, CHUNK_SIZE));
    },
  };
}

/** The carry into chunk position k multiplied by d^k instead of d^(k+1): about 1/d too much just past each boundary. */
export const chunkCarryMispowered = chunkCarryVariant(
  "mispowered",
  "chunk_carry_mispowered",
  "the chunked scan's carry multiplied by d^k instead of d^(k+1)",
);

/** No carry at all: every token before a chunk boundary misses everything after it. */
export const chunkCarryDropped = chunkCarryVariant(
  "dropped",
  "chunk_carry_dropped",
  "the chunked scan dropping the carry between chunks",
);
