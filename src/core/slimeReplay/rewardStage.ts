import { SUBNORMAL_STEP, UNIT_ROUNDOFF } from "../errorBound";
import { normaliseGroup } from "./groupNormalisation";
import { type PromptGroup, promptGroups } from "./promptGroups";
import { ACCURACY_THRESHOLD, type FieldVerdict, judgeField } from "./replayVerdict";
import type { ReplaySample, SlimeSettings } from "./settings";

/** What `_post_process_rewards` does to the raw rewards under these settings. */
export type RewardNormalisation = "std" | "mean" | "none";

export function rewardNormalisation(settings: SlimeSettings): RewardNormalisation {
  if (!settings.rewardsNormalization) return "none";
  const e = settings.advantageEstimator;
  if (e === "grpo" || e === "gspo" || e === "cispo") return settings.grpoStdNormalization ? "std" : "mean";
  return e === "reinforce_plus_plus_baseline" ? "mean" : "none";
}

export interface RewardStageReplay {
  checked: true;
  normalisation: RewardNormalisation;
  /** What was normalised as one: each prompt's group (the intended math) or the whole batch (slime's fallback). */
  scope: "group" | "batch";
  /** The batch's prompt groups, to name samples by (null when the rewards pass through and the groups are not known). */
  groups: PromptGroup[] | null;
  /** Per sample: the float64 value of its stored `rewards`. */
  reference: Float64Array;
  /** Per sample: the float32 bound on |stored − reference|; Infinity where unbounded. */
  bound: Float64Array;
  /** Per sample: its float32 result is too ill-conditioned to bound (a group whose std is lost in rounding). */
  unbounded: boolean[];
}

export type RewardStageResult = RewardStageReplay | { checked: false; why: string };

/**
 * slime's `_post_process_rewards` replayed from the raw rewards with the intended math: each
 * prompt's group normalised on its own (mean subtracted; grpo, gspo and cispo also divide by the
 * Bessel std + 1e-6 unless --disable-grpo-std-normalization), other estimators or
 * --disable-rewards-normalization passing the raw reward through. slime's own code departs from this
 * on uneven batches (variants/unevenGroups.ts). A custom --custom-reward-post-process-path replaces
 * all of it; nothing here can tell.
 */
export function replayRewardStage(samples: ReplaySample[], settings: SlimeSettings): RewardStageResult {
  const missing = samples.findIndex((s) => s.rawReward === undefined);
  if (missing >= 0)
    return {
      checked: false,
      why: `sample ${missing} has no raw reward (the dump has no local_raw_reward or raw_reward)`,
    };
  const normalisation = rewardNormalisation(settings);
  const groups = promptGroups(samples);
  if (normalisation === "none") return passThrough(samples, groups);
  if (!groups)
    return {
      checked: false,
      why: "the prompt groups are not known (the dump's samples carry no prompt tokens to group them by)",
    };
  return replayRewardGroups(samples, groups, normalisation, "group");
}

/** The rewards normalised group by group over the groups given: the prompts' groups, or the whole batch as one. */
export function replayRewardGroups(
  samples: ReplaySample[],
  groups: PromptGroup[],
  normalisation: Exclude<RewardNormalisation, "none">,
  scope: "group" | "batch",
): RewardStageReplay {
  const reference = new Float64Array(samples.length);
  const bound = new Float64Array(samples.length);
  for (const g of groups) {
    const raw = g.samples.map((i) => samples[i].rawReward as number);
    const out = normaliseGroup(raw, normalisation === "std");
    g.samples.forEach((i, j) => {
      reference[i] = out.reference[j];
      bound[i] = out.bound[j];
    });
  }
  return { checked: true, normalisation, scope, groups, reference, bound, unbounded: markUnbounded(reference, bound) };
}

/** No normalisation: slime passes the raw rewards on as they are; the bound allows one float32 round trip. */
function passThrough(samples: ReplaySample[], groups: PromptGroup[] | null): RewardStageReplay {
  const reference = Float64Array.from(samples, (s) => s.rawReward as number);
  const bound = reference.map((x) => UNIT_ROUNDOFF.float32 * Math.abs(x) + SUBNORMAL_STEP.float32);
  return {
    checked: true,
    normalisation: "none",
    scope: "group",
    groups,
    reference,
    bound,
    unbounded: markUnbounded(reference, bound),
  };
}

/**
 * Where the reference is not finite (a NaN raw reward, a group of one under std) the stored value
 * must be the same non-finite kind, which judgeField checks with any bound: 0. Where the reference
 * is finite but its bound is not, the float32 result cannot be bounded: Infinity, flagged, so that
 * judgeField's "within an infinite bound" is never read as a pass.
 */
function markUnbounded(reference: Float64Array, bound: Float64Array): boolean[] {
  return Array.from(reference, (r, i) => {
    if (!Number.isFinite(r)) {
      bound[i] = 0;
      return false;
    }
    if (Number.isFinite(bound[i])) return false;
    bound[i] = Number.POSITIVE_INFINITY;
    return true;
  });
}

export type RewardStageVerdict =
  | { checked: false; why: string }
  | {
      checked: true;
      /** Every stored reward within its bound (or, where that is infinite, the accuracy threshold). */
      passed: boolean;
      /** The batch's rewards judged as one field (token t = sample t). */
      field: FieldVerdict;
      /** Samples outside their bound. */
      departing: number[];
      /** Samples whose bound is infinite: held to the exact value at the accuracy threshold instead. */
      unbounded: number[];
      message: string;
    };

/**
 * The stored `rewards` (each sample's `reward`) judged against a replay of the stage: the intended
 * math by default, or a variant's replay. The message names the departing samples, their group and
 * its size.
 */
export function judgeRewardStage(
  samples: ReplaySample[],
  settings: SlimeSettings,
  replay: RewardStageResult = replayRewardStage(samples, settings),
): RewardStageVerdict {
  if (!replay.checked) return { checked: false, why: `the stored rewards were not checked: ${replay.why}` };
  const what = describeStage(replay);
  const stored = samples.map((s) => s.reward);
  const field = judgeField(stored, replay.reference, replay.bound);
  const departing: number[] = [];
  const unbounded: number[] = [];
  // A sample whose bound is infinite (its group's std within its own float32 error) is held to the
  // exact value at the accuracy threshold of the batch's reward scale, as judgeField holds any field.
  stored.forEach((v, i) => {
    if (replay.unbounded[i]) unbounded.push(i);
    if (!judgeField([v], [replay.reference[i]], [replay.bound[i]], { scale: field.scale }).passed) departing.push(i);
  });
  const groupOf = groupIndex(replay.groups);
  let message: string;
  if (departing.length > 0) {
    message = `the stored rewards differ from ${what} in ${placeSamples(departing, groupOf)}, by up to ${short(field.maxGap)}`;
  } else if (unbounded.length > 0) {
    message = `the stored rewards match ${what}; those of ${placeSamples(unbounded, groupOf)} cannot be bounded (the group's std is within its own float32 error) and were held to the exact value at ${ACCURACY_THRESHOLD} of the rewards' scale`;
  } else {
    const groups = replay.groups ? `, ${replay.groups.length} groups` : "";
    message = `the stored rewards match ${what} (${samples.length} samples${groups}), the largest gap ${short(field.maxGap)}`;
  }
  return {
    checked: true,
    passed: departing.length === 0,
    field,
    departing,
    unbounded,
    message,
  };
}

function describeStage(replay: RewardStageReplay): string {
  if (replay.normalisation === "none") return "the raw rewards";
  const scope = replay.scope === "group" ? "group" : "whole-batch";
  return `${scope} ${replay.normalisation === "std" ? "normalisation" : "mean-centring"} of the raw rewards`;
}

function groupIndex(groups: PromptGroup[] | null): Map<number, PromptGroup> {
  const of = new Map<number, PromptGroup>();
  for (const g of groups ?? []) for (const i of g.samples) of.set(i, g);
  return of;
}

/** "samples 4–6, group 1 of size 3; sample 9, group 3 of size 2" (runs of consecutive samples, by group). */
function placeSamples(samples: number[], groupOf: Map<number, PromptGroup>): string {
  const parts: string[] = [];
  let start = 0;
  for (let k = 1; k <= samples.length; k++) {
    const sameRun =
      k < samples.length &&
      samples[k] === samples[k - 1] + 1 &&
      groupOf.get(samples[k]) === groupOf.get(samples[k - 1]);
    if (sameRun) continue;
    const first = samples[start];
    const last = samples[k - 1];
    const which = first === last ? `sample ${first}` : `samples ${first}–${last}`;
    const g = groupOf.get(first);
    parts.push(g ? `${which}, group ${g.group} of size ${g.samples.length}` : which);
    start = k;
  }
  const shown = parts.slice(0, 4).join("; ");
  return parts.length > 4 ? `${shown}; and ${parts.length - 4} more runs` : shown;
}

function short(x: number): string {
  return Number.isFinite(x) ? String(Number(x.toPrecision(3))) : String(x);
}
