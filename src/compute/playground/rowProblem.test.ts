import { describe, expect, it } from "vitest";
import { type ScanProblem, solve } from "../../core";
import { cloneProblem, rowProblem } from "./rowProblem";

function seeded(n: number, seed: number): Float32Array {
  let s = seed;
  return Float32Array.from({ length: n }, () => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return Math.fround(s / 2 ** 31 - 0.5);
  });
}

describe("rowProblem", () => {
  it("gives the batch row's bits for a discounted problem", () => {
    const problem: ScanProblem = {
      kind: "discounted",
      rewards: { rows: 3, cols: 37, data: seeded(3 * 37, 1) },
      discount: 0.97,
      chunkSize: 8,
    };
    const whole = solve(problem, "chunked").outputs;
    const one = solve(rowProblem(problem, 1), "chunked").outputs;
    if (whole.kind !== "discounted" || one.kind !== "discounted") throw new Error("kind");
    expect(Array.from(one.returns)).toEqual(Array.from(whole.returns.subarray(37, 74)));
  });

  it("pads a lone row to the batch's width so that it matches the batch padded the same way", () => {
    const data = seeded(2 * 40, 4).fill(0, 40 + 25);
    const batch: ScanProblem = {
      kind: "discounted",
      rewards: { rows: 2, cols: 40, data },
      discount: 0.9,
      chunkSize: 16,
    };
    const lone: ScanProblem = {
      ...batch,
      rewards: { rows: 1, cols: 25, data: data.slice(40, 65) },
    };
    const whole = solve(batch, "chunked").outputs;
    const one = solve(rowProblem(lone, 0, 40), "chunked").outputs;
    if (whole.kind !== "discounted" || one.kind !== "discounted") throw new Error("kind");
    expect(Array.from(one.returns)).toEqual(Array.from(whole.returns.subarray(40, 80)));
  });

  it("pads a REINFORCE++ row to the longest row so that its chunks, and so its bits, match", () => {
    const kl = [seeded(50, 2), seeded(23, 3)];
    const problem: ScanProblem = {
      kind: "reinforce_pp",
      batch: { rewards: [1, -1], kl, lossMasks: [new Array(50).fill(1), new Array(23).fill(1).fill(0, 5, 9)] },
      klCoef: 0.3,
      gamma: 0.9,
      chunkSize: 16,
    };
    const whole = solve(problem, "chunked").outputs;
    const one = solve(rowProblem(problem, 1), "chunked").outputs;
    if (whole.kind !== "reinforce_pp" || one.kind !== "reinforce_pp") throw new Error("kind");
    expect(Array.from(one.returns[0].subarray(0, 23))).toEqual(Array.from(whole.returns[1]));
    // Without the padding the chunks would fall elsewhere and the float32 bits would differ.
    const unpadded: ScanProblem = {
      ...problem,
      batch: { rewards: [-1], kl: [kl[1]], lossMasks: [problem.batch.lossMasks[1]] },
    };
    const alone = solve(unpadded, "chunked").outputs;
    if (alone.kind !== "reinforce_pp") throw new Error("kind");
    expect(Array.from(alone.returns[0])).not.toEqual(Array.from(whole.returns[1]));
  });

  it("clones every array, so a transfer to the worker leaves the original intact", () => {
    const problem: ScanProblem = {
      kind: "gae",
      rewards: { rows: 1, cols: 2, data: new Float32Array([1, 2]) },
      values: { rows: 1, cols: 2, data: new Float32Array([3, 4]) },
      gamma: 1,
      lambd: 1,
      chunkSize: 2,
    };
    const copy = cloneProblem(problem);
    if (copy.kind !== "gae") throw new Error("kind");
    copy.rewards.data[0] = 9;
    copy.values.data[0] = 9;
    expect(problem.rewards.data[0]).toBe(1);
    expect(problem.values.data[0]).toBe(3);
  });
});
