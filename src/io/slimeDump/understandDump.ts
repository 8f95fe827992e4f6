import type { FloatArray, SlimeSettings } from "../../core";
import { describeThrown, failure, IoError, type IoResult, success } from "../ioError";
import { TensorFileError } from "../tensorFiles/tensorFileError";
import { isDict, type PyDict, type PyValue } from "../tensorFiles/tensorTypes";
import type { DumpSample, UnderstoodDump } from "./dumpTypes";
import { FieldReader, kindOf } from "./fieldReaders";
import { plainLanes } from "./plainLanes";
import { promptOf, recoverPromptGroups } from "./promptGroupRecovery";
import { isRankDump } from "./rankFiles";
import { type MergedRankRoot, mergeRankRoots } from "./rankMerge";
import { guessSettings } from "./settingsGuess";
import { FieldCache, type StreamOptions, streamedField, streamFields, withFields } from "./streamedFields";

/**
 * What a tensor file from a slime run holds (DUMPS.md):
 * - a train dump (`train_data/{id}.pt`, save_debug_train_data): `{format_version, samples: [dict]}`,
 *   each sample with its response-aligned `[R]` tensors (advantages, returns, kl, loss_masks, …);
 * - a rollout dump (`rollout_data/{id}.pt`): `{rollout_id, samples: [Sample.to_dict()]}`, no tensors;
 * - a per-rank train dump (`train_data/{id}_{rank}.pt`, slime's first format): `{rollout_id, rank,
 *   rollout_data}`, read through rankMerge.ts as the one-file step it is, or refused with what to give;
 * - anything else is a plain file a user saved by hand: its lanes are picked by name.
 * A context-parallel run's train dump holds the restored full-length fields and reads the same.
 */
export function understandDump(
  root: PyValue,
  source: string,
  options: StreamOptions & { consume?: boolean } = {},
): IoResult<UnderstoodDump> {
  try {
    const cache = options.streamed ? new FieldCache(options.streamMinTokens, options.keptBytes) : null;
    return success(understand(root, source, cache, options.consume === true));
  } catch (error) {
    if (error instanceof IoError) return failure(error);
    return failure(new IoError("", `could not be understood (${describeThrown(error)})`, source));
  }
}

/**
 * `cache`, where given, streams a train dump's long per-token fields (streamedFields.ts). `consume`:
 * the tree is no one else's (openDump's own), so each sample's dict and tensors are let go as soon
 * as the sample is read: the tree of 150,000 samples (1.2 M tensors) was held beside all of their
 * fields until the last was read, 200 MB of the command's peak.
 */
function understand(root: PyValue, source: string, cache: FieldCache | null = null, consume = false): UnderstoodDump {
  if (isRankDump(root)) return mergedTrainDump(mergeRankRoots([{ source, root }]));
  const samples = isDict(root) ? root.get("samples") : undefined;
  const first = Array.isArray(samples) ? samples[0] : undefined;
  if (isDict(root) && Array.isArray(samples) && (samples.length === 0 || isDict(first))) {
    if (samples.length === 0) throw new TensorFileError("field samples", "is an empty list: nothing to replay", source);
    if (isDict(first) && first.has("response_lengths") && first.has("loss_masks"))
      return trainDump(root, samples, source, cache, consume);
    if (isDict(first) && first.has("response_length") && first.has("reward")) return rolloutDump(samples, source);
  }
  return { kind: "plain", samples: [], settingsGuess: {}, lanes: plainLanes(root, source), notes: [] };
}

/** A step merged from per-rank files, read as the train dump it makes; its cp_size is known, not guessed. */
export function mergedTrainDump(merged: MergedRankRoot): UnderstoodDump {
  const dump = understand(merged.root, merged.label);
  const settingsGuess =
    merged.cpSize > 1 ? { ...dump.settingsGuess, contextParallelSize: merged.cpSize } : dump.settingsGuess;
  return { ...dump, settingsGuess, notes: [...merged.notes, ...dump.notes] };
}

function trainDump(
  root: PyDict,
  samples: PyValue[],
  source: string,
  cache: FieldCache | null,
  consume: boolean,
): UnderstoodDump {
  const notes: string[] = [];
  const version = root.get("format_version");
  if (version !== 2) notes.push(`${source}: format_version ${String(version)}; read as version 2`);
  const prompts: (ArrayLike<number> | null)[] = [];
  const out = samples.map((value, i): DumpSample => {
    if (!isDict(value)) throw new TensorFileError(`field samples[${i}]`, `is ${kindOf(value)}, not a dict`, source);
    const f = new FieldReader(source, `samples[${i}]`, value);
    const R = f.number("response_lengths");
    if (!Number.isSafeInteger(R) || R < 0) f.fail("response_lengths", `is ${R}, not a length`);
    const checkMask = (lossMask: FloatArray) => {
      for (let t = 0; t < R; t++)
        if (lossMask[t] !== 0 && lossMask[t] !== 1)
          f.fail("loss_masks", `holds ${lossMask[t]} at token ${t}, not 0 or 1`);
    };
    // A long field of a streamed dump is checked now and read again when a pass asks for it.
    const streamed: [keyof DumpSample, () => FloatArray][] = [];
    const tokens = (
      key: string,
      field: keyof DumpSample,
      optional: boolean,
      check?: (data: FloatArray) => void,
      narrow = false,
    ) => {
      if (optional && !f.has(key)) return undefined;
      const read = streamedField(f, key, R, cache, check, narrow);
      if (read) {
        streamed.push([field, read]);
        return undefined;
      }
      const data = f.tokens(key, R, narrow);
      check?.(data);
      return data;
    };
    // Held as float32, where its 0s and 1s are exact: widened to float64, an int32 mask was 35 MB at 4.4 M tokens.
    const lossMask = tokens("loss_masks", "lossMask", false, checkMask, true) as FloatArray;
    const totalLength = f.optionalNumber("total_lengths");
    // The prompt's tokens group the samples: only they are read, refused if a float64 cannot hold them.
    prompts.push(promptOf(value.get("tokens"), totalLength, R, (t, P) => f.leading("tokens", t, P)));
    const sample: DumpSample = {
      rolloutPosition: f.optionalNumber("rollout_position"),
      sampleIndex: f.optionalNumber("sample_index"),
      dataParallelRank: f.optionalNumber("data_parallel_rank"),
      responseLength: R,
      totalLength,
      reward: f.number("rewards"),
      rawReward: f.optionalNumber("local_raw_reward"),
      group: null,
      lossMask,
      logProbs: tokens("log_probs", "logProbs", true),
      refLogProbs: tokens("ref_log_probs", "refLogProbs", true),
      rolloutLogProbs: tokens("rollout_log_probs", "rolloutLogProbs", true),
      values: tokens("values", "values", true),
      entropy: tokens("entropy", "entropy", true),
      kl: tokens("kl", "kl", true),
      advantages: tokens("advantages", "advantages", false),
      returns: tokens("returns", "returns", false),
    };
    if (consume) samples[i] = null;
    return cache ? streamFields(sample, cache, streamed) : sample;
  });
  const positions = out.map((s) => s.rolloutPosition);
  if (
    positions.every((p) => p !== null) &&
    positions.some((p, i) => i > 0 && (p as number) < (positions[i - 1] as number))
  ) {
    notes.push(`${source}: samples are not sorted by rollout_position (slime sorts them); kept in the file's order`);
  }
  fillRawRewards(out, root.get("raw_reward"), source, notes);
  const recovered = recoverPromptGroups(
    out.map((s, i) => ({ rolloutPosition: s.rolloutPosition, prompt: prompts[i] })),
    source,
  );
  recovered.groups.forEach((g, i) => {
    out[i].group = g;
  });
  notes.push(...recovered.notes);
  // The guess passes over every token of the KL with each formula: made when first read (the page's
  // worker and a run's carried settings read it; a single dump's check reads its settings off the numbers).
  let guess: Partial<SlimeSettings> | null = null;
  const dump: UnderstoodDump = {
    kind: "train",
    samples: out,
    get settingsGuess() {
      guess ??= guessSettings(out);
      return guess;
    },
    notes,
  };
  if (recovered.summary) dump.promptGroups = recovered.summary;
  return dump;
}

/**
 * The dump's top-level `raw_reward` (the whole batch, in rollout order) gives each sample its raw
 * reward at its rollout_position where `local_raw_reward` is missing; where both are there they
 * should agree, and a disagreement is noted (the local one is kept: it travelled with the sample).
 */
function fillRawRewards(samples: DumpSample[], raw: PyValue | undefined, source: string, notes: string[]): void {
  if (!Array.isArray(raw)) return;
  const disagree: number[] = [];
  samples.forEach((s, i) => {
    const p = s.rolloutPosition;
    const whole = p !== null && typeof raw[p] === "number" ? (raw[p] as number) : null;
    if (whole === null) return;
    if (s.rawReward === null) s.rawReward = whole;
    else if (s.rawReward !== whole && !(Number.isNaN(s.rawReward) && Number.isNaN(whole))) disagree.push(i);
  });
  if (disagree.length > 0) {
    const shown = disagree
      .slice(0, 5)
      .map((i) => `samples[${i}] ${samples[i].rawReward} vs ${raw[samples[i].rolloutPosition as number]}`);
    notes.push(
      `${source}: local_raw_reward and raw_reward[rollout_position] disagree in ${disagree.length} samples (${shown.join(", ")}${disagree.length > 5 ? ", …" : ""}); local_raw_reward kept`,
    );
  }
}

function rolloutDump(samples: PyValue[], source: string): UnderstoodDump {
  const out = samples.map((value, i): DumpSample => {
    if (!isDict(value)) throw new TensorFileError(`field samples[${i}]`, `is ${kindOf(value)}, not a dict`, source);
    const f = new FieldReader(source, `samples[${i}]`, value);
    const R = f.number("response_length");
    const reward = value.get("reward");
    const lossMask = f.has("loss_mask") ? f.tokens("loss_mask", R) : new Float64Array(R).fill(1);
    const scalar = typeof reward === "number" ? reward : null;
    return {
      rolloutPosition: i,
      sampleIndex: f.optionalNumber("index"),
      dataParallelRank: null,
      responseLength: R,
      totalLength: Array.isArray(value.get("tokens")) ? (value.get("tokens") as PyValue[]).length : null,
      reward: scalar ?? Number.NaN,
      rawReward: scalar,
      group: f.optionalNumber("group_index"),
      lossMask,
      rolloutLogProbs: f.optionalTokens("rollout_log_probs", R),
      rollout: { status: f.optionalString("status"), response: f.optionalString("response"), reward: scalar },
    };
  });
  const notes = [
    `${source}: a rollout dump (Sample dicts): rewards and masks, but no advantages to replay; open it with its train dump`,
  ];
  return { kind: "rollout", samples: out, settingsGuess: {}, notes };
}

/**
 * A train dump and the rollout dump of the same step, paired by `rollout_position` (the index of
 * each training sample in the rollout's list): each training sample gets its Sample's status,
 * response text and raw reward. Disagreements (another step's file, other lengths) are notes.
 * A sample without a position (slime's first, per-rank format) is paired by its sample_index
 * (Sample.index) and takes its position from the rollout dump.
 */
export function pairDumps(train: UnderstoodDump, rollout: UnderstoodDump, source: string): UnderstoodDump {
  const notes = [...train.notes];
  const byIndex = new Map(rollout.samples.map((r) => [r.sampleIndex, r]));
  const indexed = byIndex.size === rollout.samples.length && !byIndex.has(null);
  const samples = train.samples.map((s) => {
    const same =
      indexed && s.rolloutPosition === null && s.sampleIndex !== null ? byIndex.get(s.sampleIndex) : undefined;
    if (same) s = withFields(s, { rolloutPosition: same.rolloutPosition });
    const pos = s.rolloutPosition;
    const match = pos === null ? undefined : rollout.samples[pos];
    if (!match) {
      notes.push(`${source}: train sample at rollout_position ${String(pos)} has no Sample in the rollout dump`);
      return s;
    }
    if (match.responseLength !== s.responseLength) {
      notes.push(
        `${source}: rollout_position ${pos}: response length ${s.responseLength} in the train dump, ${match.responseLength} in the rollout dump (another step's file?)`,
      );
    }
    return withFields(s, { rawReward: s.rawReward ?? match.rawReward, rollout: match.rollout });
  });
  return { ...train, samples, notes };
}
