import { ScanInputError } from "../validation";
import { type ReplayBounds, replayBounds } from "./replayBounds";
import { type ReplayReference, replayReference } from "./replayReference";
import { type FieldVerdict, judgeField } from "./replayVerdict";
import type { ReplaySample, SlimeSettings } from "./settings";

/** What slime stored for a sample: its float32 advantages and returns (and kl), widened to float64. */
export interface DumpOutputs {
  advantages: ArrayLike<number>;
  returns: ArrayLike<number>;
  kl?: ArrayLike<number>;
}

export interface SampleReplay {
  passed: boolean;
  length: number;
  reference: { advantages: Float64Array; returns: Float64Array; kl: Float64Array };
  bounds: { advantages: Float64Array; returns: Float64Array };
  advantages: FieldVerdict;
  returns: FieldVerdict;
  /** The stored KL against the float64 KL from the log-probs; null when it was not recomputed. */
  kl: FieldVerdict | null;
}

export type ReplayResult =
  | { ok: true; passed: boolean; samples: SampleReplay[] }
  /** The settings cannot be replayed on these inputs (slime would raise): its message. */
  | { ok: false; error: string };

/**
 * slime's `compute_advantages_and_returns` replayed in float64 on a dump's inputs, and each
 * sample's stored advantages and returns judged against it, every value within its own float32
 * bound. Pure: typed arrays in, typed arrays out (worker-friendly).
 */
export function replaySlime(samples: ReplaySample[], stored: DumpOutputs[], settings: SlimeSettings): ReplayResult {
  let reference: ReplayReference;
  let bounds: ReplayBounds;
  try {
    reference = replayReference(samples, settings);
    bounds = replayBounds(samples, settings, reference);
  } catch (error) {
    if (error instanceof ScanInputError) return { ok: false, error: error.message };
    throw error;
  }
  const out = samples.map((s, i): SampleReplay => {
    const advantages = judgeField(stored[i].advantages, reference.advantages[i], bounds.advantages[i]);
    const returns = judgeField(stored[i].returns, reference.returns[i], bounds.returns[i]);
    const klBound = bounds.kl[i];
    const storedKl = stored[i].kl;
    const kl = klBound && storedKl ? judgeField(storedKl, reference.kl[i], klBound) : null;
    return {
      passed: advantages.passed && returns.passed && (kl?.passed ?? true),
      length: s.lossMask.length,
      reference: { advantages: reference.advantages[i], returns: reference.returns[i], kl: reference.kl[i] },
      bounds: { advantages: bounds.advantages[i], returns: bounds.returns[i] },
      advantages,
      returns,
      kl,
    };
  });
  return { ok: true, passed: out.every((s) => s.passed), samples: out };
}
