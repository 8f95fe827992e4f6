import { type MaskedSums, whitenStats } from "../../contextParallel/cpWhiten";
import { cpLayout, cpLayoutProblem, responseIndices } from "../../contextParallel/layout";
import { replayReference } from "../replayReference";
import type { ReplaySample } from "../settings";
import type { KnownVariant } from "./knownVariant";

/**
 * slime before PR #2235: `--normalize-advantages` under context parallelism all-reduced its sums
 * over the data-parallel group without the CP ranks, so CP rank r whitened with the mean and
 * variance of every sample's slice on rank r (over all data-parallel ranks), not the whole batch's.
 * Each token gets its owning rank's statistics (CONTEXT_PARALLEL.md, "Whitening"); a rank whose
 * slices hold no mask-1 token raised in slime: its tokens come out NaN here.
 */
export function perCpRankWhitening(samples: ReplaySample[], raw: Float64Array[], cpSize: number): Float64Array[] {
  const owner = samples.map((s) => {
    const layout = cpLayout(s.totalLength as number, s.lossMask.length, cpSize);
    const rankOf = new Int32Array(s.lossMask.length);
    for (const rank of layout.ranks) for (const t of responseIndices(rank)) rankOf[t] = rank.rank;
    return rankOf;
  });
  const sums: MaskedSums[] = Array.from({ length: cpSize }, () => ({ n: 0, sum: 0, sumSquares: 0 }));
  samples.forEach((s, i) => {
    raw[i].forEach((x, t) => {
      const m = s.lossMask[t];
      const part = sums[owner[i][t]];
      part.n += m;
      part.sum += x * m;
      part.sumSquares += x * x * m;
    });
  });
  const stats = sums.map((part) => whitenStats(part, (x) => x));
  return raw.map((row, i) =>
    row.map((x, t) => {
      const s = stats[owner[i][t]];
      return s ? (x - s.mean) * s.rstd : Number.NaN;
    }),
  );
}

function layoutsFit(samples: ReplaySample[], cpSize: number): boolean {
  return samples.every(
    (s) => s.totalLength !== undefined && cpLayoutProblem(s.totalLength, s.lossMask.length, cpSize) === null,
  );
}

/**
 * The variant at the run's CP size (settings.contextParallelSize; it applies only above 1). A run
 * whose CP size was not given is tried at other sizes by io's diagnoseOverCpSizes.
 */
export function whitenPerCpRank(): KnownVariant {
  return {
    id: "whiten_per_cp_rank",
    title: "each CP rank whitening its own slice of the advantages",
    source: "slime PR #2235",
    stage: "advantages",
    applies(samples, settings) {
      if (!settings.normalizeAdvantages) return false;
      const n = settings.contextParallelSize;
      return n > 1 && layoutsFit(samples, n);
    },
    reference(samples, settings) {
      const n = settings.contextParallelSize;
      // The raw advantages as a run at this CP size computes them (ppo's reward placement depends on it).
      const { rawAdvantages } = replayReference(samples, settings);
      return { advantages: perCpRankWhitening(samples, rawAdvantages, n) };
    },
  };
}
