/**
 * What a tour stop's try should read, recomputed with core's float64 serial reference from the
 * inputs alone (never from the player's trace): for the unit tests of the tries and for
 * e2e/tour-try.spec.ts, which compares the numbers on screen with it.
 */

import type { TourNumber } from "../compute/player/tourTry";
import { outputErrorBounds, type ScanProblem, serialDiscountedReturns } from "../core";
import { stateToProblem } from "../io/playgroundProblem";
import type { PlaygroundState } from "../io/playgroundState";

export interface Expected {
  value: number;
  /** How far the shown number may be from `value`: 0 for the reference's own numbers, else the float32 scan's error bound. */
  tolerance: number;
  what: string;
}

const chunkedBound = (problem: ScanProblem) => {
  const bounds = outputErrorBounds(problem, { precision: "float32", algorithm: "chunked" });
  if (bounds.kind !== "discounted") throw new Error("the tour's tries run on discounted returns");
  return bounds.returns;
};

/** The reference of one row of discounted returns (the tour's example, as the tries leave it). */
export function tourReference(state: PlaygroundState) {
  const problem = stateToProblem(state, "float64");
  if (problem.kind !== "discounted" || problem.rewards.rows !== 1) {
    throw new Error("the tour's tries run on one row of discounted returns");
  }
  const { rewards, discount, chunkSize: C } = problem;
  const T = rewards.cols;
  const serial = serialDiscountedReturns(rewards, discount).data;
  const bound = chunkedBound(problem);
  const nChunks = Math.ceil(T / C);

  /** Chunk c's local sum at position k: the serial return of the chunk's tokens alone. */
  const local = (c: number, k: number): Expected => {
    const last = T - 1 - c * C;
    const first = Math.max(0, T - (c + 1) * C);
    const t = T - 1 - (c * C + k);
    const alone = { rows: 1, cols: last - first + 1, data: rewards.data.slice(first, last + 1) };
    const sub: ScanProblem = { kind: "discounted", rewards: alone, discount, chunkSize: C };
    return {
      value: serialDiscountedReturns(alone, discount).data[t - first],
      tolerance: chunkedBound(sub)[t - first],
      what: `local sum of chunk ${c} at k = ${k} (t = ${t})`,
    };
  };

  return {
    T,
    C,
    nChunks,
    serial,
    bound,
    /** The largest |output − serial| over a row of outputs (the engine's, or the cells on screen). */
    maxError(outputs: ArrayLike<number>): number {
      let max = 0;
      for (let t = 0; t < T; t++) max = Math.max(max, Math.abs(outputs[t] - serial[t]));
      return max;
    },
    /** The expected value of a number a try quotes; the largest |error| needs the outputs (maxError). */
    expected(n: Pick<TourNumber, "quantity" | "t" | "chunk" | "k">): Expected {
      const t = n.t ?? -1;
      const c = n.chunk ?? -1;
      switch (n.quantity) {
        case "serial":
          return { value: serial[t], tolerance: 0, what: `serial G_${t}` };
        case "output":
          return { value: serial[t], tolerance: bound[t], what: `output G_${t}` };
        case "carry":
          // The carry into chunk c is G at the token after it, t = T − c·C; nothing comes after chunk 0.
          return c === 0
            ? { value: 0, tolerance: 0, what: "carry s_0" }
            : { value: serial[T - c * C], tolerance: bound[T - c * C], what: `carry s_${c} = G_${T - c * C}` };
        case "local":
          return local(c, n.k ?? 0);
        case "chunks":
          return { value: nChunks, tolerance: 0, what: "chunks" };
        case "padding":
          return { value: nChunks * C - T, tolerance: 0, what: "padding" };
        case "over-bound":
          return { value: 0, tolerance: 0, what: "outputs over their bound" };
        case "max-error":
          throw new Error("the largest |error| needs the outputs: use maxError");
      }
    },
  };
}
