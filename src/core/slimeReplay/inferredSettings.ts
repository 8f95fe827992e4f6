import type { SlimeSettings } from "./settings";

export type InferredParameter = "gamma" | "lambd" | "klCoef";

export interface Estimate {
  /** The least-squares value (before cleanDecimal). */
  value: number;
  /** The true value lies within value ± uncertainty (≈ 3σ, never below float32's own rounding). */
  uncertainty: number;
}

export interface InferredSettings {
  /** What to replay with: estimates rounded to a clean decimal, SLIME_DEFAULTS where the dump says nothing. */
  settings: SlimeSettings;
  estimates: Partial<Record<InferredParameter, Estimate>>;
  /** Why a setting could not be read off the dump (its value in `settings` is then slime's default or a tie's first). */
  notIdentifiable: Partial<Record<keyof SlimeSettings, string>>;
  notes: string[];
  /**
   * The context-parallel sizes the dump's numbers cannot tell apart (ppo's whose reward placements
   * fit alike; every size for the estimators that place nothing): a bug that depends on the size
   * (each CP rank whitening its own slice) is looked for under each. Absent when not read.
   */
  contextParallelSizes?: number[];
}

/**
 * What the numbers leave open, for the replay to decide: other readings to try (with the estimates
 * that go with them), and values to replay with for settings that are not identifiable but must go
 * together with the ones that are (γ held at its default, γλ and β fitted with it).
 */
export interface Pending {
  alternatives: { settings: Partial<SlimeSettings>; estimates?: InferredSettings["estimates"]; note: string }[];
  values: Partial<Record<InferredParameter, Estimate>>;
}
