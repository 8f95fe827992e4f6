import { type MaskedSums, whitenStats } from "../../contextParallel/cpWhiten";
import { cpLayout, cpLayoutProblem, responseIndices } from "../../contextParallel/layout";
import { replayReference } from "../replayReference";
import type { ReplaySample, SlimeSettings } from "../settings";
import type { KnownVariant } from "./knownVariant";

/** The CP sizes tried when the run's is not known (settings.contextParallelSize left at 1). */
export const CP_SIZE_TRIALS = [2, 4, 8] as const;

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
 * The variant at one CP size. Without `cpSize` it takes the run's (settings.contextParallelSize,
 * and applies only above 1); with one it is a trial for a run whose CP size was not given (it
 * applies where settings say 1 or that size) and its id says the size: `whiten_per_cp_rank@4`.
 */
export function whitenPerCpRank(cpSize?: number): KnownVariant {
  const sizeOf = (settings: SlimeSettings) => cpSize ?? settings.contextParallelSize;
  return {
    id: cpSize === undefined ? "whiten_per_cp_rank" : `whiten_per_cp_rank@${cpSize}`,
    title:
      cpSize === undefined
        ? "each CP rank whitening its own slice of the advantages"
        : `each of ${cpSize} CP ranks whitening its own slice of the advantages`,
    source: "slime PR #2235",
    stage: "advantages",
    applies(samples, settings) {
      if (!settings.normalizeAdvantages) return false;
      const n = sizeOf(settings);
      if (n <= 1) return false;
      if (cpSize !== undefined && settings.contextParallelSize !== 1 && settings.contextParallelSize !== cpSize) {
        return false;
      }
      return layoutsFit(samples, n);
    },
    reference(samples, settings) {
      const n = sizeOf(settings);
      // The raw advantages as a run at this CP size computes them (ppo's reward placement depends on it).
      const { rawAdvantages } = replayReference(samples, { ...settings, contextParallelSize: n });
      return { advantages: perCpRankWhitening(samples, rawAdvantages, n) };
    },
  };
}

/** The CP size a `whiten_per_cp_rank` id names, or null (the run's own size, or another variant). */
export function cpSizeOfVariant(id: string): number | null {
  const m = /^whiten_per_cp_rank@(\d+)$/.exec(id);
  return m ? Number(m[1]) : null;
}

/** The trials for an unknown CP size, to add to the variants diagnose gets. */
export const WHITEN_PER_CP_RANK_TRIALS: KnownVariant[] = CP_SIZE_TRIALS.map((n) => whitenPerCpRank(n));
