/**
 * The plain JavaScript loop a programmer would write, the floor every engine strategy is held
 * against: `G = r + d·G` right to left over each row of a Float32Array, storing float32 results.
 */
export function jsLoopReturns(rewards: Float32Array, rows: number, cols: number, discount: number): Float32Array {
  const out = new Float32Array(rows * cols);
  for (let b = 0; b < rows; b++) {
    let running = 0;
    for (let i = (b + 1) * cols - 1; i >= b * cols; i--) {
      out[i] = rewards[i] + discount * running;
      running = out[i];
    }
  }
  return out;
}
