import { type Batch, type FloatArray, roundingOf, zerosLike } from "./batch";
import { checkDiscount, checkFiniteBatch } from "./validation";

/**
 * The ground truth: `G[t] = r[t] + d·G[t+1]`, `G[T] = 0`, each row on its own, right to left.
 * In float32 every product and sum is rounded, with the discount rounded once to fl32(d),
 * exactly like slime's test helper `running = r[:, t] + d * running` on float32 tensors.
 */
export function serialDiscountedReturns<A extends FloatArray>(rewards: Batch<A>, discount: number): Batch<A> {
  checkDiscount(discount);
  checkFiniteBatch(rewards, "rewards");
  const round = roundingOf(rewards.data);
  const d = round(discount);
  const { rows, cols } = rewards;
  const out = zerosLike(rewards.data, rows * cols);
  for (let b = 0; b < rows; b++) {
    let running = 0;
    for (let t = cols - 1; t >= 0; t--) {
      const i = b * cols + t;
      running = round(rewards.data[i] + round(d * running));
      out[i] = running;
    }
  }
  return { rows, cols, data: out };
}
