import { roundToBfloat16 } from "../../bfloat16";
import type { RowScan } from "./variantScans";

/**
 * slime's `chunked_discounted_returns` run on a bfloat16 tensor: what happens when the token rewards
 * (or, for GAE, the critic's values, whose dtype `get_advantages_and_returns_batch` takes) come in
 * bf16 from a mixed-precision model and nobody casts them to float32. Everything follows the
 * tensor's dtype (ALGORITHM.md §b.3):
 * - the discount enters as `discount ** k` with the base rounded to the dtype first, so the kernel
 *   holds bf16(bf16(d)^k): 0.995 becomes 0.99609375, which compounds over long responses;
 * - the GEMM's products are exact in float32 and summed there (torch's bf16 CPU/GPU GEMMs
 *   accumulate in float32), and each result is rounded to bf16 once;
 * - the carry term is its own bf16 multiply, then a bf16 add.
 * Chosen over a bf16 serial loop because a dump from slime would come out of this path. O(T·C).
 */
export function bfloat16ChunkedScan(paddedLength: number, chunkSize = 128): RowScan {
  return (row, discount) => {
    const d = roundToBfloat16(discount);
    const kernel = new Float64Array(chunkSize + 1);
    for (let k = 0; k <= chunkSize; k++) kernel[k] = discount === 0 ? Number(k === 0) : roundToBfloat16(d ** k);
    const x = row.map(roundToBfloat16);
    const L = row.length;
    const out = new Float64Array(L);
    let carryIn = 0;
    let chunkStart = L - 1;
    for (let t = L - 1; t >= 0; t--) {
      const k = (paddedLength - 1 - t) % chunkSize;
      if (k === 0) {
        carryIn = t + 1 < L ? out[t + 1] : 0;
        chunkStart = t + k;
      }
      // Reversed position k of the chunk sums inputs at reversed l = 0 … k, i.e. t' = t … chunkStart.
      let acc = 0;
      const first = Math.min(chunkStart, L - 1);
      for (let s = t; s <= first; s++) acc = Math.fround(acc + x[s] * kernel[s - t]);
      const local = roundToBfloat16(acc);
      out[t] = roundToBfloat16(local + roundToBfloat16(carryIn * kernel[k + 1]));
    }
    return out;
  };
}
