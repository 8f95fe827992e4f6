import type { FloatArray, ScanProblem } from "../../core";

/**
 * Row b of a problem alone, laid out so that its scan gives the same bits as the whole batch's
 * row b: while a stroke lasts only the edited row is recomputed. The row is right-padded to
 * `width` (the batch's padded length), because the chunks align to that length: rectangular
 * problems with zeros, as stateToProblem pads a ragged batch; a REINFORCE++ row with masked
 * zero-KL tokens (token reward 0, as slime pads). Trim the outputs to the row's length afterwards.
 */
export function rowProblem(problem: ScanProblem, b: number, width = paddedWidth(problem)): ScanProblem {
  switch (problem.kind) {
    case "discounted":
      return { ...problem, rewards: rowBatch(problem.rewards, b, width) };
    case "gae":
      return { ...problem, rewards: rowBatch(problem.rewards, b, width), values: rowBatch(problem.values, b, width) };
    case "reinforce_pp": {
      const { rewards, kl, lossMasks } = problem.batch;
      const row = kl[b];
      const paddedKl = (row instanceof Float32Array ? new Float32Array(width) : new Float64Array(width)) as FloatArray;
      paddedKl.set(row.subarray(0, width));
      const mask = new Array<number>(width).fill(0);
      for (let t = 0; t < Math.min(width, row.length); t++) mask[t] = lossMasks[b][t];
      return { ...problem, batch: { rewards: [rewards[b]], kl: [paddedKl], lossMasks: [mask] } };
    }
  }
}

/** The padded `[B, width]` length a problem is scanned at (the longest REINFORCE++ row). */
export function paddedWidth(problem: ScanProblem): number {
  if (problem.kind !== "reinforce_pp") return problem.rewards.cols;
  return problem.batch.kl.reduce((max, row) => Math.max(max, row.length), 0);
}

function rowBatch<A extends FloatArray>(x: { rows: number; cols: number; data: A }, b: number, width: number) {
  const data = (x.data instanceof Float32Array ? new Float32Array(width) : new Float64Array(width)) as A;
  data.set(x.data.subarray(b * x.cols, b * x.cols + Math.min(width, x.cols)));
  return { rows: 1, cols: width, data };
}

/** A copy whose typed arrays the engine may take (transfer empties the sender's arrays). */
export function cloneProblem(problem: ScanProblem): ScanProblem {
  switch (problem.kind) {
    case "discounted":
      return { ...problem, rewards: { ...problem.rewards, data: problem.rewards.data.slice() } };
    case "gae":
      return {
        ...problem,
        rewards: { ...problem.rewards, data: problem.rewards.data.slice() },
        values: { ...problem.values, data: problem.values.data.slice() },
      };
    case "reinforce_pp":
      return {
        ...problem,
        batch: {
          rewards: Array.from(problem.batch.rewards),
          kl: problem.batch.kl.map((row) => row.slice()),
          lossMasks: problem.batch.lossMasks.map((row) => Array.from(row)),
        },
      };
  }
}
