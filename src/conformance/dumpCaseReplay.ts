import {
  type DumpOutputs,
  judgeRewardStage,
  type ReplayResult,
  type ReplaySample,
  type RewardStageVerdict,
  replaySlime,
} from "../core";
import type { SlimeDumpCase } from "../io/caseSchema";
import { settingsFromCase } from "../io/slimeDumpSettings";

/**
 * A slime_dump case replayed: its samples and stored values handed to core's replaySlime with its
 * settings, field for field as `scanlab dump` hands a dump's (io's dumpReplayInputs), so the
 * case's verdict is the dump's.
 */
export function replayDumpCase(c: SlimeDumpCase): ReplayResult {
  const stored = c.stored.map(
    (s): DumpOutputs => ({
      advantages: Float64Array.from(s.advantages),
      returns: Float64Array.from(s.returns),
      kl: typed(s.kl),
    }),
  );
  return replaySlime(caseSamples(c), stored, settingsFromCase(c.settings));
}

/** The case's stored rewards against the reward post-processing of its raw rewards, as `scanlab dump` judges them. */
export function judgeDumpCaseRewards(c: SlimeDumpCase): RewardStageVerdict {
  return judgeRewardStage(caseSamples(c), settingsFromCase(c.settings));
}

function caseSamples(c: SlimeDumpCase): ReplaySample[] {
  return c.samples.map(
    (s): ReplaySample => ({
      reward: s.reward,
      lossMask: s.loss_mask,
      ...(s.raw_reward !== undefined ? { rawReward: s.raw_reward } : {}),
      ...(s.group !== undefined ? { group: s.group } : {}),
      ...(s.data_parallel_rank !== undefined ? { dataParallelRank: s.data_parallel_rank } : {}),
      ...(s.total_length !== undefined ? { totalLength: s.total_length } : {}),
      logProbs: typed(s.log_probs),
      refLogProbs: typed(s.ref_log_probs),
      rolloutLogProbs: typed(s.rollout_log_probs),
      kl: typed(s.kl),
      values: typed(s.values),
    }),
  );
}

function typed(values: number[] | undefined): Float64Array | undefined {
  return values ? Float64Array.from(values) : undefined;
}
