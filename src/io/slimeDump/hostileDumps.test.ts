import { describe, expect, it } from "vitest";
import { slimeRewards } from "../../core";
import { byDataParallelRank } from "../../core/slimeReplay/replayBounds";
import { readTensorFile } from "../tensorFiles/readTensorFile";
import { tensorSpec, torchZip } from "../tensorFiles/torchWriterKit";
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

const int64 = (values: bigint[]) => new Uint8Array(BigInt64Array.from(values).buffer);
const f32 = (values: number[]) => new Uint8Array(Float32Array.from(values).buffer);

function oneSample(tokens: bigint[], extra: bigint[]) {
  const sample = {
    response_lengths: 2,
    total_lengths: 4,
    rewards: 1,
    tokens: tensorSpec("t", 4, [4], { storageClass: "torch.LongStorage" }),
    extra_ids: tensorSpec("x", extra.length, [extra.length], { storageClass: "torch.LongStorage" }),
    loss_masks: tensorSpec("m", 2, [2]),
    advantages: tensorSpec("a", 2, [2]),
    returns: tensorSpec("a", 2, [2]),
  };
  return torchZip(
    { format_version: 2, samples: [sample] },
    { t: int64(tokens), x: int64(extra), m: f32([1, 1]), a: f32([1, 1]) },
  );
}

describe("an int64 beyond 2^53 is refused where it is read, by its field", () => {
  const huge = 2n ** 60n + 1n;

  it("in a field the dump does not use: read (it refused the whole dump, naming a storage record)", () => {
    const dump = open(oneSample([1n, 2n, 3n, 4n], [7n, huge]));
    if (!dump.ok) throw new Error(dump.error.message);
    expect(dump.value.kind).toBe("train");
    expect(dump.value.samples[0].advantages).toEqual(Float64Array.of(1, 1));
  });

  it("in samples[0].tokens, which group the prompts: refused naming samples[0].tokens", () => {
    const dump = open(oneSample([1n, huge, 3n, 4n], [7n]));
    expect(dump.ok).toBe(false);
    if (dump.ok) return;
    expect(dump.error.where).toBe("field samples[0].tokens");
    expect(dump.error.message).toContain(`int64 element 1 is ${huge}, beyond ±2^53`);
  });
});

describe("sample counts cost linear work: 150,000 short samples", () => {
  const n = 150_000;
  const mask = tensorSpec("m", 1, [1]);
  const adv = tensorSpec("a", 1, [1]);
  const samples = Array.from({ length: n }, (_, i) => ({
    response_lengths: 1,
    loss_masks: mask,
    rewards: 0.5,
    advantages: adv,
    returns: adv,
    rollout_position: i,
    data_parallel_rank: i % 4,
  }));

  it("are read and understood (an APPENDS of 150,000 overflowed the call stack)", () => {
    const bytes = torchZip({ format_version: 2, samples }, { m: f32([1]), a: f32([0]) });
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
