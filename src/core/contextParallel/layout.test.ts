import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CpLayoutError, cpLayout, formatSpan, responseIndices } from "./layout";
import { ppoRewardPlacement } from "./ppoByRank";

const seed = Number(process.env.SCANLAB_FC_SEED ?? 20261129);
fc.configureGlobal({ seed });

/**
 * The layout from its definition, token by token: response token k comes from logit P − 1 + k,
 * which lies in chunk ⌊(P − 1 + k) / c⌋; chunk k belongs to rank min(k, 2n − 1 − k); a rank lists
 * its first chunk's tokens, then its second's.
 */
function bruteForce(T: number, R: number, n: number): number[][] {
  const P = T - R;
  const c = Math.ceil(T / (2 * n));
  const owner = (chunk: number) => Math.min(chunk, 2 * n - 1 - chunk);
  const ranks = Array.from({ length: n }, () => ({ first: [] as number[], second: [] as number[] }));
  for (let k = 0; k < R; k++) {
    const chunk = Math.floor((P - 1 + k) / c);
    const r = owner(chunk);
    (chunk < n ? ranks[r].first : ranks[r].second).push(k);
  }
  return ranks.map(({ first, second }) => [...first, ...second]);
}

describe("cpLayout", () => {
  it("reproduces the worked example: T = 20, R = 12, cp_size 2", () => {
    const layout = cpLayout(20, 12, 2);
    expect(layout.promptLength).toBe(8);
    expect(layout.chunkLength).toBe(5);
    expect(layout.ranks.flatMap((r) => r.pieces.map((p) => [p.positions.start, p.positions.end]))).toEqual([
      [0, 5],
      [15, 20],
      [5, 10],
      [10, 15],
    ]);
    const [rank0, rank1] = layout.ranks;
    // Rank 0's first chunk lies in the prompt.
    expect(rank0.pieces[0].response).toBeNull();
    expect(responseIndices(rank0)).toEqual([8, 9, 10, 11]);
    expect(rank0.pieces[1].logits).toEqual({ start: 15, end: 19 });
    expect(responseIndices(rank1)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(rank1.pieces.map((p) => formatSpan(p.response))).toEqual(["0–2", "3–7"]);
    expect(rank1.pieces[1].localOffset).toBe(3);
  });

  it("gives, for every cp_size 1–8 and lengths up to a few thousand, the indices of the definition", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 8 }),
        fc.integer({ min: 2, max: 4000 }).chain((T) => fc.tuple(fc.constant(T), fc.integer({ min: 1, max: T - 1 }))),
        (n, [T, R]) => {
          const layout = cpLayout(T, R, n);
          expect(layout.ranks.map(responseIndices)).toEqual(bruteForce(T, R, n));
        },
      ),
      { numRuns: 300 },
    );
  });

  it("covers the response exactly once, in ascending local order, for every cp_size 1–8 and every length below 100", () => {
    const failures: string[] = [];
    for (let n = 1; n <= 8; n++) {
      for (let T = 2; T < 100; T++) {
        for (let R = 1; R < T; R++) {
          const layout = cpLayout(T, R, n);
          const seen = new Array<number>(R).fill(0);
          let ordered = true;
          for (const rank of layout.ranks) {
            const held = responseIndices(rank);
            if (held.length !== rank.localLength) ordered = false;
            for (let i = 1; i < held.length; i++) if (held[i] <= held[i - 1]) ordered = false;
            for (const k of held) seen[k]++;
          }
          if (!ordered || !seen.every((count) => count === 1)) failures.push(`T = ${T}, R = ${R}, cp_size ${n}`);
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it("at cp_size 1 gives rank 0 the whole response in order", () => {
    expect(responseIndices(cpLayout(7, 4, 1).ranks[0])).toEqual([0, 1, 2, 3]);
  });

  it("refuses a layout that cannot exist, saying why", () => {
    expect(() => cpLayout(20, 20, 2)).toThrow(CpLayoutError);
    expect(() => cpLayout(20, 20, 2)).toThrow("response length 20 leaves no prompt token in a total length of 20");
    expect(() => cpLayout(20, 0, 2)).toThrow("response length must be a whole number of at least 1, got 0");
    expect(() => cpLayout(20, 5, 0)).toThrow("cp_size must be a whole number from 1 to 1024, got 0");
    expect(() => cpLayout(2.5, 1, 2)).toThrow("total length must be a whole number from 2 to 16777216, got 2.5");
  });
});

describe("PPO reward placement", () => {
  /** The largest total length below 400 where rank 0's last local element is not the last response token. */
  const largestMisplaced = (n: number) => {
    let largest = 0;
    for (let T = 2; T < 400; T++) {
      for (let R = 1; R < T; R++) if (!ppoRewardPlacement(cpLayout(T, R, n)).correct) largest = T;
    }
    return largest;
  };

  it("fails exactly at the lengths the document lists: up to T = 13 at cp_size 2, 57 at 4, 241 at 8", () => {
    expect(largestMisplaced(2)).toBe(13);
    expect(largestMisplaced(4)).toBe(57);
    expect(largestMisplaced(8)).toBe(241);
    expect(largestMisplaced(1)).toBe(0);
  });

  it("is right exactly when rank 0's second chunk reaches the last logit, (2n − 1)·c < T − 1, or its first does", () => {
    const failures: string[] = [];
    for (const n of [1, 2, 3, 4, 8]) {
      for (let T = 2; T < 300; T++) {
        const c = Math.ceil(T / (2 * n));
        for (let R = 1; R < T; R++) {
          // The first chunk reaches it only in the tiniest samples (T = 2 at cp_size 2).
          const expected = (2 * n - 1) * c < T - 1 || c >= T - 1;
          if (ppoRewardPlacement(cpLayout(T, R, n)).correct !== expected)
            failures.push(`T = ${T}, R = ${R}, cp_size ${n}`);
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it("says where the reward lands instead", () => {
    // T = 13, R = 11, cp_size 2: c = 4; rank 0 holds logits 1–3 (response 0–2) and nothing of chunk 3.
    expect(ppoRewardPlacement(cpLayout(13, 11, 2))).toEqual({ lastToken: 10, landsAt: 2, correct: false });
    // T = 13, R = 6: rank 0 holds no response token at all.
    expect(ppoRewardPlacement(cpLayout(13, 6, 2))).toEqual({ lastToken: 5, landsAt: null, correct: false });
    // T = 8 at cp_size 2 is below 13 but fine: (2n − 1)·c = 6 < 7.
    expect(ppoRewardPlacement(cpLayout(8, 5, 2)).correct).toBe(true);
  });
});
