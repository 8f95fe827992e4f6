import type { FloatArray, SlimeSettings } from "../../core";
import type { PromptGroupSummary } from "./promptGroupRecovery";

/** A sample's per-token fields, every one that a dump may store (index t = response token t). */
export const DUMP_TOKEN_FIELDS = [
  "lossMask",
  "logProbs",
  "refLogProbs",
  "rolloutLogProbs",
  "values",
  "entropy",
  "kl",
  "advantages",
  "returns",
] as const;

/** One training sample of a slime dump, its per-token fields as stored (float32, or float64 where the file holds float64) (index t = response token t). */
export interface DumpSample {
  /** Index into the rollout dump's `samples` (null when the dump has none). */
  rolloutPosition: number | null;
  sampleIndex: number | null;
  /** The data-parallel rank that trained it (`data_parallel_rank`). */
  dataParallelRank: number | null;
  responseLength: number;
  totalLength: number | null;
  /** The reward slime trained on, after `_post_process_rewards` (group-normalised for grpo-style estimators). */
  reward: number;
  /**
   * The raw reward: `local_raw_reward`, else the dump's top-level `raw_reward` at this sample's
   * rollout_position, else the paired rollout dump's.
   */
  rawReward: number | null;
  /**
   * The prompt's group: recovered from the prompt tokens in a train dump (groups numbered in rollout
   * order), `group_index` in a rollout dump; null when not known.
   */
  group: number | null;
  lossMask: FloatArray;
  logProbs?: FloatArray;
  refLogProbs?: FloatArray;
  rolloutLogProbs?: FloatArray;
  values?: FloatArray;
  /** The policy's per-token entropy, stored with `--use-rollout-entropy` (read to be shown, never replayed). */
  entropy?: FloatArray;
  kl?: FloatArray;
  advantages?: FloatArray;
  returns?: FloatArray;
  /** From the paired rollout dump: the Sample's status and response text. */
  rollout?: { status: string | null; response: string | null; reward: number | null };
}

/** Lanes picked out of a tensor file a user saved by hand, one row per sequence. */
export interface PlainLanes {
  rewards?: Float64Array[];
  values?: Float64Array[];
  kl?: Float64Array[];
  lossMask?: Float64Array[];
  /** Each row's length (`lengths`, `response_lengths`), when the file says: rows past it are padding. */
  lengths?: number[];
  /** Tensors found that no lane took, with their shapes. */
  unused: string[];
}

export interface UnderstoodDump {
  kind: "train" | "rollout" | "plain";
  /** In the dump's order (a train dump is sorted by rollout_position). */
  samples: DumpSample[];
  /** What the file decides about the run's settings (values present → ppo, the KL formula that reproduces `kl`). */
  settingsGuess: Partial<SlimeSettings>;
  /** For a train dump whose prompt groups were recovered: n_samples_per_prompt and the uneven groups. */
  promptGroups?: PromptGroupSummary;
  /** For a plain file: its lanes. */
  lanes?: PlainLanes;
  notes: string[];
}
