import { cpLocalLength } from "../../core";

/**
 * Which context-parallel rank each file of one data-parallel shard is, from the lengths of its
 * slices. A file whose slice of sample i holds L_i tokens can be CP rank r of cp_size n only if
 * L_i = cpLocalLength(T_i, R_i, n, r) for every sample. Where the lengths leave a choice (two ranks
 * holding as many tokens), Megatron's default rank order (tp-cp-dp-pp: the CP rank grows with the
 * global rank inside a shard) decides: the shard's files, in global-rank order, take increasing CP
 * ranks. A rank no file takes is missing, unless its slice is empty in every sample (nothing lost).
 */
export type CpAssignment =
  /** One way: `ranks[j]` is the CP rank of the shard's j-th file. */
  | { kind: "one"; ranks: number[] }
  /** Several ways fit: which file is which rank cannot be told. */
  | { kind: "many" }
  /** One way to place the files given, but CP ranks holding tokens have no file. */
  | { kind: "missing"; ranks: number[]; missing: number[] }
  /** File `member` fits no rank of this cp_size (`sample`: the first sample that rules the last one out), or the files fit no rank order. */
  | { kind: "none"; member: number; sample: number };

/**
 * `profiles[j][i]`: the slice length of sample i in the shard's j-th file (files in global-rank
 * order); `T`, `R`: each sample's total and response length.
 */
export function assignCpRanks(profiles: number[][], T: number[], R: number[], n: number): CpAssignment {
  const fits: boolean[][] = [];
  for (let j = 0; j < profiles.length; j++) {
    const ok = new Array<boolean>(n).fill(true);
    let left = n;
    for (let i = 0; i < T.length && left > 0; i++) {
      // A sample without a response gives every rank nothing: it tells no rank apart.
      if (R[i] === 0) continue;
      for (let r = 0; r < n; r++) {
        if (ok[r] && profiles[j][i] !== cpLocalLength(T[i], R[i], n, r)) {
          ok[r] = false;
          left--;
          if (left === 0) return { kind: "none", member: j, sample: i };
        }
      }
    }
    fits.push(ok);
  }
  const empty = Array.from({ length: n }, (_, r) => T.every((t, i) => cpLocalLength(t, R[i], n, r) === 0));
  const ways = countWays(fits, empty, n);
  if (ways.count === 1) return { kind: "one", ranks: ways.first };
  if (ways.count > 1) return { kind: "many" };
  // No complete placement: the smallest fitting rank for each file in turn places them if anything does.
  const ranks: number[] = [];
  for (let j = 0; j < fits.length; j++) {
    const r = fits[j].findIndex((ok, k) => ok && k > (ranks[j - 1] ?? -1));
    if (r < 0) return { kind: "none", member: j, sample: -1 };
    ranks.push(r);
  }
  const missing = Array.from({ length: n }, (_, r) => r).filter((r) => !ranks.includes(r) && !empty[r]);
  return { kind: "missing", ranks, missing };
}

/**
 * Increasing placements of the files on ranks they fit, skipping only ranks that hold nothing
 * (counted up to 2), and the first one. ways[j][p]: placements of files j… given file j − 1 on
 * rank p − 1 (p = 0: none placed yet).
 */
function countWays(fits: boolean[][], empty: boolean[], n: number): { count: number; first: number[] } {
  const m = fits.length;
  // skippable[a][b]: every rank in [a, b) holds nothing.
  const skippable = (a: number, b: number) => {
    for (let r = a; r < b; r++) if (!empty[r]) return false;
    return true;
  };
  const ways: number[][] = Array.from({ length: m + 1 }, () => new Array<number>(n + 1).fill(0));
  for (let p = 0; p <= n; p++) ways[m][p] = skippable(p, n) ? 1 : 0;
  for (let j = m - 1; j >= 0; j--) {
    for (let p = 0; p <= n; p++) {
      let total = 0;
      for (let r = p; r < n && skippable(p, r); r++) {
        if (fits[j][r]) total = Math.min(2, total + ways[j + 1][r + 1]);
      }
      ways[j][p] = total;
    }
  }
  const first: number[] = [];
  if (ways[0][0] > 0) {
    let p = 0;
    for (let j = 0; j < m; j++) {
      let r = p;
      while (!(fits[j][r] && ways[j + 1][r + 1] > 0 && skippable(p, r))) r++;
      first.push(r);
      p = r + 1;
    }
  }
  return { count: ways[0][0], first };
}
