import { type PickleValue, PyFloat, TorchTensor } from "./torchPickleWriter";
import { storageOf, torchSaveBytes } from "./torchZipWriter";

/**
 * Test support: a slime train dump (DUMPS.md §1: `{format_version: 2, rollout_id, samples: [dict]}`)
 * of any number of samples of given lengths, in memory, in torch 1.13's layout under `archive/`.
 * Every per-token field of every sample is a row view of one flat storage per field (as slime's
 * whitened advantages are views of one flat storage), so a dump of thousands of samples is a
 * handful of records. The numbers are REINFORCE++ with γ 1 and kl_coef 0 (every return is the
 * sample's reward), so the replay passes them.
 */
export interface WrittenSample {
  length: number;
  reward: number;
  /** Token ranges [start, end) with loss mask 0 (tool output); the last token is always trained on. */
  toolSpans?: [number, number][];
}

/** `count` samples of `lengths(i)` tokens, one tool span in every fourth. */
export function manySamples(count: number, length: (i: number) => number): WrittenSample[] {
  return Array.from({ length: count }, (_, i) => {
    const n = length(i);
    return {
      length: n,
      reward: (i % 7) / 7,
      toolSpans: i % 4 === 0 && n > 8 ? [[Math.floor(n / 4), Math.floor(n / 2)] as [number, number]] : [],
    };
  });
}

const FIELDS = ["log_probs", "ref_log_probs", "rollout_log_probs", "entropy", "kl", "advantages", "returns"] as const;

export function trainDumpBytes(samples: readonly WrittenSample[]): Promise<Uint8Array> {
  const total = samples.reduce((n, s) => n + s.length, 0);
  const masks = new Int32Array(total);
  const floats = Object.fromEntries(FIELDS.map((f) => [f, new Float32Array(total)])) as Record<
    (typeof FIELDS)[number],
    Float32Array
  >;
  let at = 0;
  for (const s of samples) {
    for (let t = 0; t < s.length; t++) {
      const inTool = (s.toolSpans ?? []).some(([a, b]) => t >= a && t < b && t < s.length - 1);
      masks[at + t] = inTool ? 0 : 1;
      const logProb = -0.05 - 0.9 * Math.abs(Math.sin(0.37 * t + s.reward));
      floats.log_probs[at + t] = logProb;
      floats.ref_log_probs[at + t] = logProb - 0.01 * Math.cos(0.11 * t);
      floats.rollout_log_probs[at + t] = inTool ? 0 : logProb + 0.002;
      floats.entropy[at + t] = 0.2 + 0.5 * Math.abs(Math.cos(0.05 * t));
      floats.advantages[at + t] = s.reward;
      floats.returns[at + t] = s.reward;
    }
    at += s.length;
  }
  // Storage keys follow first use: the masks `0`, the fields `1`…`7` in FIELDS order.
  const maskStorage = storageOf("int32", masks);
  const fieldStorages = FIELDS.map((f) => storageOf("float32", floats[f]));
  let offset = 0;
  const rows: PickleValue[] = samples.map((s, i) => {
    const row = (storage: typeof maskStorage) => new TorchTensor(storage, [s.length], offset);
    const sample: Record<string, PickleValue> = {
      rollout_position: i,
      response_lengths: s.length,
      total_lengths: s.length + 16,
      rewards: new PyFloat(s.reward),
      loss_masks: row(maskStorage),
    };
    FIELDS.forEach((field, k) => {
      sample[field] = row(fieldStorages[k]);
    });
    offset += s.length;
    return sample;
  });
  return torchSaveBytes({ format_version: 2, rollout_id: 0, samples: rows }, { stem: "archive", layout: "torch-1.13" });
}
