import { type Batch, type FloatArray, type Zeros, zerosLike } from "./batch";
import { checkDiscount, checkFiniteBatch } from "./validation";

/**
 * The ground truth: `G[t] = r[t] + d·G[t+1]`, `G[T] = 0`, each row on its own, right to left.
 * In float32 every product and sum is rounded, with the discount rounded once to fl32(d),
 * exactly like slime's test helper `running = r[:, t] + d * running` on float32 tensors.
 */
export function serialDiscountedReturns<A extends FloatArray>(
  rewards: Batch<A>,
  discount: number,
  zeros: Zeros = zerosLike,
): Batch<A> {
  checkDiscount(discount);
  checkFiniteBatch(rewards, "rewards");
  const { rows, cols, data } = rewards;
  const out = zeros(data, rows * cols);
  const float32 = data instanceof Float32Array;
  const d = float32 ? Math.fround(discount) : discount;
  for (let b = 0; b < rows; b++) {
    if (float32) serialRow32(out, data, b * cols, cols, d);
    else serialRow64(out, data, b * cols, cols, d);
  }
  return { rows, cols, data: out };
}

/**
 * One row of the loop, each product and sum rounded to float32: a function per row and precision,
 * so that no rounding function is called per operation (docs/design.md, "Inner loops").
 */
function serialRow32(out: FloatArray, r: FloatArray, start: number, cols: number, d: number): void {
  let running = 0;
  for (let i = start + cols - 1; i >= start; i--) {
    running = Math.fround(r[i] + Math.fround(d * running));
    out[i] = running;
  }
}

/** serialRow32 in float64: no rounding between the operations. */
function serialRow64(out: FloatArray, r: FloatArray, start: number, cols: number, d: number): void {
  let running = 0;
  for (let i = start + cols - 1; i >= start; i--) {
    running = r[i] + d * running;
    out[i] = running;
  }
}
