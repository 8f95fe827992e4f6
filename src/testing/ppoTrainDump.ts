import { approxKl, DEFAULT_CHUNK_SIZE, runConvention, whitenAdvantages } from "../core";
import { intBetween, seededRandom } from "../core/seededRandom";
import type { ByteSink } from "./storedZipWriter";
import { type PickleValue, PyFloat, type TorchStorage, TorchTensor } from "./torchPickleWriter";
import { storageOf, type TorchLayout, writeTorchSave } from "./torchZipWriter";

/**
 * Test and bench support: a train dump as slime's `save_debug_train_data` writes it for
 * `--advantage-estimator ppo` (format_version 2, DUMPS.md §1), at any size, streamed: the stored
 * KL is k1 of the log-probs, the returns and advantages are core's slime GAE (runConvention:
 * slime's chunked float32 scan, bit for bit as on the padded batch), the advantages whitened as
 * `distributed_masked_whiten` does (core's whitenAdvantages). Storage is shared as slime's trainer
 * holds it: the returns are rows of one padded `[B, max_R]` storage, the whitened advantages
 * views of one flat storage of all tokens, `rollout_mask_sums` 0-d views of one `[B]` storage;
 * everything else one storage per tensor. The batch's advantages, returns and masks (9 bytes a
 * token, twice the advantages while whitening) stay in memory; the other fields are drawn again,
 * sample by sample, from the seed when their record is written.
 */
export interface PpoDumpParams {
  samples: number;
  promptLength: number;
  /** Response lengths are drawn between these (inclusive); the first sample has the shortest, the second the longest. */
  responseMin: number;
  responseMax: number;
  /** Share of samples cut at responseMax (`truncated` 1). */
  truncatedShare: number;
  /** Share of samples with tool spans (loss mask 0) inside the response, as multi-turn rollouts have. */
  toolShare: number;
  /** Samples per prompt (the group shares its prompt tokens). */
  samplesPerPrompt: number;
  /** Chance that a sample's reward is 1 (else 0). */
  rewardRate: number;
  /** Scale of log_probs − ref_log_probs. */
  klScale: number;
  /** `--use-rollout-entropy`: `entropy` and `ref_entropy` per token. */
  entropy: boolean;
  gamma: number;
  lambd: number;
  klCoef: number;
  normalizeAdvantages: boolean;
  rolloutId: number;
  seed: number;
}

export const PPO_DUMP_DEFAULTS: PpoDumpParams = {
  samples: 8,
  promptLength: 64,
  responseMin: 16,
  responseMax: 400,
  truncatedShare: 0,
  toolShare: 0.25,
  samplesPerPrompt: 8,
  rewardRate: 0.5,
  klScale: 0.05,
  entropy: false,
  gamma: 1,
  lambd: 1,
  klCoef: 0.02,
  normalizeAdvantages: true,
  rolloutId: 0,
  seed: 1,
};

/** What a written dump holds, for the caller's report. */
export interface PpoDumpSummary {
  bytes: number;
  samples: number;
  responseTokens: number;
  minResponse: number;
  maxResponse: number;
}

interface SampleInputs {
  tokens: Int32Array; // int64 as (low, high) pairs: ids are small and non-negative
  lossMask: Int32Array;
  logProbs: Float32Array;
  refLogProbs: Float32Array;
  rolloutLogProbs: Float32Array;
  values: Float32Array;
  kl: Float32Array;
  entropy: Float32Array | null;
  refEntropy: Float32Array | null;
}

const VOCABULARY = 151643;
/** Samples per GAE call: bounds the padded block in memory (block × its longest × a few float32 arrays). */
const GAE_BLOCK = 32;

/** Writes the dump to `sink` as torch.save would (`stem` is the record prefix, `5` for `train_data/5.pt`). */
export async function writePpoTrainDump(
  sink: ByteSink,
  given: Partial<PpoDumpParams>,
  stem: string,
  layout: TorchLayout = "torch-2",
): Promise<PpoDumpSummary> {
  const p = { ...PPO_DUMP_DEFAULTS, ...given };
  if (p.samples < 2 || p.responseMin < 1 || p.responseMax < p.responseMin) {
    throw new Error("ppo dump: at least 2 samples and 1 ≤ responseMin ≤ responseMax");
  }
  const plan = planSamples(p);
  const B = p.samples;

  // First pass: slime's float32 GAE as slime's trainer runs it on one data-parallel rank, over the
  // batch padded to its longest response. The scan reverses each row and chunks it from the padded
  // end, so a row padded to any length ≡ longest (mod chunk size) gets the same bits: samples go
  // in blocks of similar length, each block with one all-zero row of such a length.
  const advantages: Float32Array[] = new Array(B);
  const returns: Float32Array[] = new Array(B);
  const masks: Uint8Array[] = new Array(B);
  const maskSums = new Float32Array(B);
  const longest = Math.max(...plan.lengths);
  const byLength = plan.lengths.map((_, i) => i).sort((a, b) => plan.lengths[a] - plan.lengths[b]);
  for (let start = 0; start < B; start += GAE_BLOCK) {
    const rows = byLength.slice(start, start + GAE_BLOCK);
    const drawn = rows.map((i) => drawInputs(p, plan, i));
    const blockMax = plan.lengths[rows[rows.length - 1]];
    const width = blockMax + ((longest - blockMax) % DEFAULT_CHUNK_SIZE);
    const run = runConvention(
      "slime",
      "gae",
      {
        rewards: [...rows.map((i) => plan.rewards[i]), 0],
        kl: [...drawn.map((x) => x.kl), new Float32Array(width)],
        lossMasks: [...drawn.map((x) => x.lossMask), new Int32Array(width).fill(1)],
        values: [...drawn.map((x) => x.values), new Float32Array(width)],
      },
      { gamma: p.gamma, lambd: p.lambd, klCoef: p.klCoef, normalize: false },
    );
    rows.forEach((i, k) => {
      advantages[i] = run.advantages[k];
      returns[i] = run.returns[k];
      const mask = drawn[k].lossMask;
      masks[i] = Uint8Array.from(mask);
      let sum = 0;
      for (let t = 0; t < mask.length; t++) sum += mask[t];
      maskSums[i] = sum;
    });
  }
  const stored = p.normalizeAdvantages ? whitenAdvantages("slime", advantages, masks) : advantages;
  masks.length = 0;

  const maxR = Math.max(...plan.lengths);
  const totalR = plan.lengths.reduce((a, b) => a + b, 0);
  const returnsStorage: TorchStorage = {
    dtype: "float32",
    numel: B * maxR,
    *chunks() {
      for (const row of returns) {
        yield row;
        if (row.length < maxR) yield new Float32Array(maxR - row.length);
      }
    },
  };
  // Whitened: one flat storage split into rows; not whitened: rows of the padded GAE output, as returns.
  const advantageStorage: TorchStorage = p.normalizeAdvantages
    ? { dtype: "float32", numel: totalR, chunks: () => stored }
    : {
        dtype: "float32",
        numel: B * maxR,
        *chunks() {
          for (const row of stored) {
            yield row;
            if (row.length < maxR) yield new Float32Array(maxR - row.length);
          }
        },
      };
  const maskSumStorage = storageOf("float32", maskSums);

  // Second pass, inside the zip writer: a sample's fields drawn again when its first record is reached.
  let cached = -1;
  let cache: SampleInputs | null = null;
  const inputs = (i: number): SampleInputs => {
    if (cached !== i) {
      cache = drawInputs(p, plan, i);
      cached = i;
    }
    return cache as SampleInputs;
  };
  const field = (
    i: number,
    dtype: TorchStorage["dtype"],
    length: number,
    pick: (x: SampleInputs) => ArrayBufferView | null,
  ): TorchStorage => ({
    dtype,
    numel: length,
    chunks: () => {
      const data = pick(inputs(i));
      if (!data) throw new Error("ppo dump: a field asked for that this dump does not have");
      return [data];
    },
  });

  const samples: PickleValue[] = [];
  let advantageOffset = 0;
  for (let i = 0; i < B; i++) {
    const R = plan.lengths[i];
    const T = p.promptLength + R;
    const vector = (s: TorchStorage) => new TorchTensor(s, [R]);
    const sample: Record<string, PickleValue> = {
      data_parallel_rank: 0,
      sample_index: i,
      rollout_position: i,
      tokens: new TorchTensor(
        field(i, "int64", T, (x) => x.tokens),
        [T],
      ),
      response_lengths: R,
      rewards: new PyFloat(plan.rewards[i]),
      truncated: plan.truncated[i] ? 1 : 0,
      loss_masks: vector(field(i, "int32", R, (x) => x.lossMask)),
      rollout_ids: i,
      rollout_mask_sums: new TorchTensor(maskSumStorage, [], i),
      source_names: "math",
      total_lengths: T,
      local_raw_reward: new PyFloat(plan.rewards[i]),
      rollout_log_probs: vector(field(i, "float32", R, (x) => x.rolloutLogProbs)),
      log_probs: vector(field(i, "float32", R, (x) => x.logProbs)),
    };
    if (p.entropy) sample.entropy = vector(field(i, "float32", R, (x) => x.entropy));
    sample.ref_log_probs = vector(field(i, "float32", R, (x) => x.refLogProbs));
    if (p.entropy) sample.ref_entropy = vector(field(i, "float32", R, (x) => x.refEntropy));
    sample.values = vector(field(i, "float32", R, (x) => x.values));
    sample.advantages = new TorchTensor(advantageStorage, [R], p.normalizeAdvantages ? advantageOffset : i * maxR);
    sample.returns = new TorchTensor(returnsStorage, [R], i * maxR);
    sample.kl = vector(field(i, "float32", R, (x) => x.kl));
    samples.push(sample);
    advantageOffset += R;
  }

  const root: Record<string, PickleValue> = {
    format_version: 2,
    rollout_id: p.rolloutId,
    rank: 0,
    samples,
    dp_shards: [dpShard(p, plan)],
    raw_reward: plan.rewards.map((r) => new PyFloat(r)),
  };
  const bytes = await writeTorchSave(sink, root, { stem, layout });
  return {
    bytes,
    samples: B,
    responseTokens: totalR,
    minResponse: Math.min(...plan.lengths),
    maxResponse: maxR,
  };
}

interface SamplePlan {
  lengths: number[];
  truncated: boolean[];
  rewards: number[];
  seeds: number[];
}

/** Lengths, rewards and per-sample seeds, drawn up front: the second pass must draw the same samples. */
function planSamples(p: PpoDumpParams): SamplePlan {
  const random = seededRandom(p.seed);
  const lengths: number[] = [];
  const truncated: boolean[] = [];
  const rewards: number[] = [];
  const seeds: number[] = [];
  for (let i = 0; i < p.samples; i++) {
    const cut = i === 1 || (i > 1 && random() < p.truncatedShare);
    const R = i === 0 ? p.responseMin : cut ? p.responseMax : intBetween(random, p.responseMin, p.responseMax);
    lengths.push(R);
    truncated.push(R === p.responseMax);
    // A truncated answer earns nothing, as a length-capped grader gives.
    rewards.push(!cut && random() < p.rewardRate ? 1 : 0);
    seeds.push(Math.floor(random() * 2 ** 32));
  }
  return { lengths, truncated, rewards, seeds };
}

function drawInputs(p: PpoDumpParams, plan: SamplePlan, i: number): SampleInputs {
  const R = plan.lengths[i];
  const random = seededRandom(plan.seeds[i]);
  const prompt = seededRandom(p.seed * 7919 + Math.floor(i / p.samplesPerPrompt));
  const tokens = new Int32Array(2 * (p.promptLength + R));
  for (let t = 0; t < p.promptLength; t++) tokens[2 * t] = Math.floor(prompt() * VOCABULARY);
  for (let t = p.promptLength; t < p.promptLength + R; t++) tokens[2 * t] = Math.floor(random() * VOCABULARY);

  const lossMask = new Int32Array(R).fill(1);
  if (R > 64 && random() < p.toolShare) {
    const spans = intBetween(random, 1, 3);
    for (let s = 0; s < spans; s++) {
      const length = intBetween(random, 8, Math.max(8, Math.floor(R / 8)));
      const start = intBetween(random, 1, Math.max(1, R - length - 1));
      lossMask.fill(0, start, Math.min(R - 1, start + length));
    }
  }
  // Uniform draws scaled to unit variance (noise) keep this at a few ns a token; the shapes only
  // need to look like a policy's: most log-probs near 0, a tail down to −2.
  const noise = () => (random() - 0.5) * 3.4641016;
  const logProbs = new Float32Array(R);
  const refLogProbs = new Float32Array(R);
  const rolloutLogProbs = new Float32Array(R);
  const values = new Float32Array(R);
  let value = plan.rewards[i] * 0.5 + 0.25 * noise();
  for (let t = 0; t < R; t++) {
    const u = random();
    logProbs[t] = -2 * u * u * u * u;
    refLogProbs[t] = logProbs[t] - p.klScale * noise();
    rolloutLogProbs[t] = lossMask[t] ? logProbs[t] + 0.01 * noise() : 0;
    value = 0.995 * value + 0.02 * noise();
    values[t] = value;
  }
  const kl = Float32Array.from(approxKl(logProbs, refLogProbs, "k1"));
  let entropy: Float32Array | null = null;
  let refEntropy: Float32Array | null = null;
  if (p.entropy) {
    entropy = new Float32Array(R);
    refEntropy = new Float32Array(R);
    for (let t = 0; t < R; t++) {
      entropy[t] = 1.6 * random();
      refEntropy[t] = entropy[t] + 0.05 * noise();
    }
  }
  return { tokens, lossMask, logProbs, refLogProbs, rolloutLogProbs, values, kl, entropy, refEntropy };
}

/** One data-parallel rank holding the batch; micro-batches packed up to 32k tokens, as slime's dynamic batching does. */
function dpShard(p: PpoDumpParams, plan: SamplePlan): PickleValue {
  const budget = Math.max(32768, p.promptLength + p.responseMax);
  const micro: number[][] = [];
  let current: number[] = [];
  let used = 0;
  plan.lengths.forEach((R, i) => {
    const T = p.promptLength + R;
    if (used + T > budget && current.length > 0) {
      micro.push(current);
      current = [];
      used = 0;
    }
    current.push(i);
    used += T;
  });
  if (current.length > 0) micro.push(current);
  const all = plan.lengths.map((_, i) => i);
  return {
    rank: 0,
    data_parallel_rank: 0,
    sample_indices: all,
    partition: all,
    global_batch_sizes: [p.samples],
    num_microbatches: [micro.length],
    micro_batch_indices: micro,
  };
}
