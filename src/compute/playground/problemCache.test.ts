import { describe, expect, it } from "vitest";
import type { ScanProblem } from "../../core";
import { stateToProblem } from "../../io/playgroundProblem";
import type { PlaygroundState } from "../../io/playgroundState";
import { BASE_SETTINGS } from "../../io/presets";
import { problemsFor } from "./problemCache";

const rows = [
  { length: 3, rewards: [1, Math.fround(0.1), -2], values: [0.5, 0.25, 0], kl: [0.1, 0.2, 0.3].map(Math.fround) },
  { length: 2, rewards: [3, 4], lossMask: [1, 0] as (0 | 1)[], kl: [1, 2], outcome: 1 },
];
const state: PlaygroundState = { ...BASE_SETTINGS, estimator: "gae", data: { source: "inline", rows } };

/** The problem with its loss masks as plain arrays (problemsFor keeps them as Float64Arrays, same values). */
function plainMasks(problem: ScanProblem): ScanProblem {
  if (problem.kind !== "reinforce_pp") return problem;
  return { ...problem, batch: { ...problem.batch, lossMasks: problem.batch.lossMasks.map((m) => Array.from(m)) } };
}

describe("problemsFor", () => {
  it("gives what stateToProblem gives, in both precisions, with the state's parameters", () => {
    for (const estimator of ["discounted", "gae", "reinforce_pp"] as const) {
      const s = { ...state, estimator, gamma: 0.9, lambd: 0.5, klCoef: 0.2, chunkSize: 2 };
      const { p64, p32 } = problemsFor(s, rows);
      expect(plainMasks(p64)).toEqual(stateToProblem(s, "float64", rows));
      expect(plainMasks(p32)).toEqual(stateToProblem(s, "float32", rows));
    }
  });

  it("reuses the input arrays when only a parameter changes", () => {
    const a = problemsFor(state, rows);
    const b = problemsFor({ ...state, gamma: 0.5, chunkSize: 7 }, rows);
    if (a.p64.kind !== "gae" || b.p64.kind !== "gae") throw new Error("kind");
    expect(b.p64.rewards).toBe(a.p64.rewards);
    expect(b.p64).toMatchObject({ gamma: 0.5, chunkSize: 7 });
  });
});
