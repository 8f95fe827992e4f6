import { BFLOAT16_UNIT_ROUNDOFF, roundToBfloat16 } from "../../bfloat16";
import { bfloat16ChunkedScan } from "./bfloat16Scan";
import type { KnownVariant } from "./knownVariant";
import { isScanEstimator, withScan } from "./scanVariant";
import { paddedLengths } from "./variantInputs";

/**
 * The returns computed in bfloat16 (BUGS.md, "Precision"): the scan's inputs cast to bf16 and
 * slime's chunked scan run in that dtype (bfloat16ChunkedScan says why this path), the result
 * widened back to float32. For ppo the critic's values, the residuals and A + V are bf16 too.
 * Stored values then sit on bf16's grid, about 3 significant digits.
 */
export const returnsBfloat16: KnownVariant = {
  id: "returns_bfloat16",
  title: "the returns computed in bfloat16",
  source: "BUGS.md: a mixed-precision mistake",
  stage: "returns",
  resolution: BFLOAT16_UNIT_ROUNDOFF,
  applies: (samples, settings) =>
    isScanEstimator(settings) && (settings.advantageEstimator !== "ppo" || samples.every((s) => s.values)),
  reference(samples, settings) {
    const padded = paddedLengths(samples);
    return withScan(samples, settings, (i) => bfloat16ChunkedScan(padded[i]), roundToBfloat16);
  },
};
