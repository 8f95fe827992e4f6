import { describe, expect, it } from "vitest";
import { slimeRewards } from "../../core";
import { byDataParallelRank } from "../../core/slimeReplay/replayBounds";
import { type PickleValue, TorchTensor } from "../../testing/torchPickleWriter";
import { storageOf, torchSaveBytes } from "../../testing/torchZipWriter";
import { readTensorFile } from "../tensorFiles/readTensorFile";
import { dumpReplayInputs } from "./replayDump";
import { understandDump } from "./understandDump";

/**
 * Dumps that are valid but hostile in what they cost or hold (issue 28, part 7): tens of thousands
 * of samples go through in linear work without a stack overflow, and an int64 a float64 cannot hold
 * is refused only where a reader uses it, named by its field.
 */
function open(bytes: Uint8Array) {
  const file = readTensorFile(bytes, "dump.pt");
  if (!file.ok) throw new Error(file.error.message);
  return understandDump(file.value.root, "dump.pt");
}

/** A vector over the whole of a storage of these values. */
const int64 = (values: bigint[]) => new TorchTensor(storageOf("int64", BigInt64Array.from(values)), [values.length]);
const f32 = (values: number[]) => new TorchTensor(storageOf("float32", Float32Array.from(values)), [values.length]);
/** The samples in one APPENDS, however many (torch batches them by 1000): the form that overflowed the call stack. */
const torchZip = (root: { format_version: number; samples: PickleValue[] }) =>
  torchSaveBytes(root, { stem: "archive", layout: "torch-1.13", batch: Number.POSITIVE_INFINITY });

function oneSample(tokens: bigint[], extra: bigint[]) {
  const advantages = f32([1, 1]);
  const sample = {
    response_lengths: 2,
    total_lengths: 4,
    rewards: 1,
    tokens: int64(tokens),
    extra_ids: int64(extra),
    loss_masks: f32([1, 1]),
    advantages,
    returns: new TorchTensor(advantages.storage, [2]),
  };
  return torchZip({ format_version: 2, samples: [sample] });
}

describe("an int64 beyond 2^53 is refused where it is read, by its field", () => {
  const huge = 2n ** 60n + 1n;

  it("in a field the dump does not use: read (it refused the whole dump, naming a storage record)", async () => {
    const dump = open(await oneSample([1n, 2n, 3n, 4n], [7n, huge]));
    if (!dump.ok) throw new Error(dump.error.message);
    expect(dump.value.kind).toBe("train");
    expect(Array.from(dump.value.samples[0].advantages ?? [])).toEqual([1, 1]);
  });

  it("in samples[0].tokens, which group the prompts: refused naming samples[0].tokens", async () => {
    const dump = open(await oneSample([1n, huge, 3n, 4n], [7n]));
    expect(dump.ok).toBe(false);
    if (dump.ok) return;
    expect(dump.error.where).toBe("field samples[0].tokens");
    expect(dump.error.message).toContain(`int64 element 1 is ${huge}, beyond ±2^53`);
  });
});

describe("sample counts cost linear work: 150,000 short samples", () => {
  const n = 150_000;
  const mask = f32([1]);
  const adv = f32([0]);
  const samples = Array.from({ length: n }, (_, i) => ({
    response_lengths: 1,
    loss_masks: mask,
    rewards: 0.5,
    advantages: adv,
    returns: adv,
    rollout_position: i,
    data_parallel_rank: i % 4,
  }));

  it("are read and understood (an APPENDS of 150,000 overflowed the call stack)", async () => {
    const bytes = await torchZip({ format_version: 2, samples });
    const dump = open(bytes);
    if (!dump.ok) throw new Error(dump.error.message);
    expect(dump.value.samples).toHaveLength(n);
    const { samples: replay } = dumpReplayInputs(dump.value);
    // Grouped by pushing (a copy of the group per sample made 60,000 samples take minutes).
    const groups = byDataParallelRank(replay);
    expect(groups.map((g) => g.length)).toEqual([n / 4, n / 4, n / 4, n / 4]);
    expect(groups[1].slice(0, 3)).toEqual([1, 5, 9]);
  });

  it("one prompt group of 150,000 is normalised in one pass", () => {
    const many = Array.from({ length: n }, (_, i) => ({
      reward: 0,
      lossMask: Float64Array.of(1),
      rawReward: i % 2,
      group: 0,
    }));
    const out = slimeRewards(
      many as never,
      {
        advantageEstimator: "grpo",
        rewardsNormalization: true,
        grpoStdNormalization: false,
      } as never,
    );
    expect(out?.[0]).toBeCloseTo(-0.5, 12);
  });
});
