import { describe, expect, it } from "vitest";
import { cpLocalLength } from "../../core";
import { assignCpRanks } from "./cpRankAssignment";

/** The slice lengths rank r of cp_size n holds of each sample. */
function profile(T: number[], R: number[], n: number, r: number): number[] {
  return T.map((t, i) => cpLocalLength(t, R[i], n, r));
}

describe("assignCpRanks", () => {
  const T = [41, 200, 97, 13];
  const R = [20, 150, 30, 9];

  it("places every rank's file, in global-rank order, where only the order tells ranks of equal lengths apart", () => {
    // Long responses after short prompts: ranks 1, 2 and 3 hold as many tokens of every sample.
    const [longT, longR, n] = [[200, 97, 64], [190, 90, 60], 4];
    const profiles = [0, 1, 2, 3].map((r) => profile(longT, longR, n, r));
    expect(profiles.slice(1)).toEqual([profiles[1], profiles[1], profiles[1]]);
    expect(assignCpRanks(profiles, longT, longR, n)).toEqual({ kind: "one", ranks: [0, 1, 2, 3] });
    expect(
      assignCpRanks(
        [0, 1, 2, 3].map((r) => profile(T, R, n, r)),
        T,
        R,
        n,
      ),
    ).toEqual({ kind: "one", ranks: [0, 1, 2, 3] });
  });

  it("names the CP ranks missing, and not a rank that holds nothing of any sample", () => {
    // T 41, R 20 at cp_size 5: ranks 0 and 1 hold no response token.
    const n = 5;
    expect([0, 1, 2, 3, 4].map((r) => cpLocalLength(41, 20, n, r))).toEqual([0, 0, 5, 5, 10]);
    expect(assignCpRanks([profile([41], [20], n, 2), profile([41], [20], n, 4)], [41], [20], n)).toEqual({
      kind: "missing",
      ranks: [2, 4],
      missing: [3],
    });
    expect(
      assignCpRanks(
        [2, 3, 4].map((r) => profile([41], [20], n, r)),
        [41],
        [20],
        n,
      ),
    ).toEqual({
      kind: "one",
      ranks: [2, 3, 4],
    });
  });

  it("says when the lengths and the order leave a choice", () => {
    const n = 5;
    const profiles = [0, 2, 3, 4].map((r) => profile([41], [20], n, r));
    // The first file holds nothing: rank 0 or rank 1.
    expect(assignCpRanks(profiles, [41], [20], n)).toEqual({ kind: "many" });
  });

  it("refuses a file no rank of the size fits, naming the sample that rules the last rank out", () => {
    const profiles = [profile(T, R, 2, 0), [...profile(T, R, 2, 1).slice(0, 2), 999, 0]];
    expect(assignCpRanks(profiles, T, R, 2)).toEqual({ kind: "none", member: 1, sample: 2 });
  });

  it("refuses files whose ranks contradict Megatron's order", () => {
    const profiles = [profile(T, R, 2, 1), profile(T, R, 2, 0)];
    expect(assignCpRanks(profiles, T, R, 2)).toEqual({ kind: "none", member: 1, sample: -1 });
  });
});
