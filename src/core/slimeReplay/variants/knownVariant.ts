import type { ReplaySample, SlimeSettings } from "../settings";

/** The stage of slime's pipeline where a variant departs from slime's semantics. */
export type VariantStage = "rewards" | "kl" | "returns" | "advantages";

/**
 * What a variant computes for the fields it changes, in float64 (a field it leaves alone is absent):
 * `rewards` one per sample (after `_post_process_rewards`), the others one array per sample.
 */
export interface VariantReference {
  rewards?: Float64Array;
  kl?: Float64Array[];
  returns?: Float64Array[];
  advantages?: Float64Array[];
}

/**
 * A known way of computing a dump's numbers that is not slime's semantics: a bug reported against
 * slime or a peer, reproduced as a small pure function beside slime's own. The diagnosis replays each
 * that applies and names the one that reproduces the stored numbers.
 */
export interface KnownVariant {
  id: string;
  /** What it does, in a phrase: "the KL not masked at tool tokens". */
  title: string;
  /** Where it was reported: "slime PR #1372". */
  source: string;
  stage: VariantStage;
  /**
   * Relative resolution of the values it stores when coarser than float32's (bfloat16: 2^-8): the
   * diagnosis then allows that much of the field's scale between them and the stored values.
   */
  resolution?: number;
  /** Whether it can change anything under these settings on these samples (e.g. needs tool spans). */
  applies(samples: ReplaySample[], settings: SlimeSettings): boolean;
  reference(samples: ReplaySample[], settings: SlimeSettings): VariantReference;
}
