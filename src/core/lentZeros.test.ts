import { describe, expect, it } from "vitest";
import { type FloatArray, type Zeros, zerosLike } from "./batch";
import { outputErrorBounds } from "./outputBounds";
import { type ScanProblem, solve } from "./problem";
import { seededRandom } from "./seededRandom";

/** A Zeros that lends zeroed arrays of its own, and records them. */
function lender(): { zeros: Zeros; lent: FloatArray[] } {
  const lent: FloatArray[] = [];
  const zeros: Zeros = (like, length) => {
    const a = zerosLike(like, length);
    lent.push(a);
    return a;
  };
  return { zeros, lent };
}

function problems(): ScanProblem[] {
  const random = seededRandom(7);
  const table = (n: number) => Float64Array.from({ length: n }, () => random() * 2 - 1);
  const rows = 3;
  const cols = 37;
  return [
    { kind: "discounted", rewards: { rows, cols, data: table(rows * cols) }, discount: 0.97, chunkSize: 8 },
    {
      kind: "gae",
      rewards: { rows, cols, data: table(rows * cols) },
      values: { rows, cols, data: table(rows * cols) },
      gamma: 0.99,
      lambd: 0.95,
      chunkSize: 16,
    },
  ];
}

function float32(problem: ScanProblem): ScanProblem {
  if (problem.kind === "discounted")
    return { ...problem, rewards: { ...problem.rewards, data: Float32Array.from(problem.rewards.data) } };
  if (problem.kind === "gae")
    return {
      ...problem,
      rewards: { ...problem.rewards, data: Float32Array.from(problem.rewards.data) },
      values: { ...problem.values, data: Float32Array.from(problem.values.data) },
    };
  return problem;
}

describe("a caller's zeros for the serial scan's and the bounds' tables", () => {
  for (const p64 of problems()) {
    for (const problem of [p64, float32(p64)]) {
      const precision = problem.kind !== "reinforce_pp" && problem.rewards.data instanceof Float32Array ? 32 : 64;
      it(`${problem.kind}, float${precision}: the same bits, written into the lent arrays`, () => {
        const { zeros, lent } = lender();
        const own = solve(problem, "serial").outputs;
        const into = solve(problem, "serial", { zeros }).outputs;
        expect(into).toEqual(own);
        // Every output table is one of the lent arrays (GAE also lends its residuals).
        const tables =
          into.kind === "gae" ? [into.advantages, into.returns] : into.kind === "discounted" ? [into.returns] : [];
        for (const t of tables) expect(lent).toContain(t);
        expect(lent.length).toBe(problem.kind === "gae" ? 3 : 1);
      });
    }
    it(`${p64.kind}: the bounds' tables come from the lent zeros, with the same values`, () => {
      const { zeros, lent } = lender();
      const implementation = { precision: "float32", algorithm: "chunked" } as const;
      const own = outputErrorBounds(p64, implementation);
      const into = outputErrorBounds(p64, implementation, zeros);
      expect(into).toEqual(own);
      expect(lent.length).toBe(p64.kind === "gae" ? 2 : 1);
    });
  }
});
