import { zipSync } from "fflate";

/**
 * A slime train dump (DUMPS.md §1: `{format_version: 2, rollout_id, samples: [dict]}`) written here,
 * at test time, in torch.save's zip layout: a protocol-2 `data.pkl` whose tensors are
 * `_rebuild_tensor_v2` views of storages under `data/<key>`. Every per-token field of every sample is
 * a row view of one storage per field (as slime's whitened advantages are views of one flat storage),
 * so a dump of thousands of samples is a handful of records. The numbers are REINFORCE++ with γ 1 and
 * kl_coef 0 (every return is the sample's reward), so the replay passes them.
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

export function trainDumpBytes(samples: readonly WrittenSample[]): Uint8Array {
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
  const p = new PickleWriter();
  p.proto();
  p.emptyDict();
  p.mark();
  p.str("format_version");
  p.int(2);
  p.str("rollout_id");
  p.int(0);
  p.str("samples");
  p.emptyList();
  p.mark();
  let offset = 0;
  samples.forEach((s, i) => {
    p.emptyDict();
    p.mark();
    p.str("rollout_position");
    p.int(i);
    p.str("response_lengths");
    p.int(s.length);
    p.str("total_lengths");
    p.int(s.length + 16);
    p.str("rewards");
    p.float(s.reward);
    p.str("loss_masks");
    p.tensor("torch.IntStorage", "0", total, offset, s.length);
    FIELDS.forEach((field, k) => {
      p.str(field);
      p.tensor("torch.FloatStorage", String(k + 1), total, offset, s.length);
    });
    p.setItems();
    offset += s.length;
  });
  p.appends();
  p.setItems();
  p.stop();
  const files: Record<string, Uint8Array> = {
    "archive/data.pkl": p.bytes(),
    "archive/version": new TextEncoder().encode("3\n"),
    "archive/data/0": new Uint8Array(masks.buffer),
  };
  FIELDS.forEach((field, k) => {
    files[`archive/data/${k + 1}`] = new Uint8Array(floats[field].buffer);
  });
  return zipSync(files, { level: 0 });
}

/** Just the opcodes a torch.save pickle of dicts, lists, numbers and tensor views needs. */
class PickleWriter {
  private readonly chunks: number[] = [];
  private readonly text = new TextEncoder();

  private u32(n: number) {
    this.chunks.push(n & 0xff, (n >>> 8) & 0xff, (n >>> 16) & 0xff, (n >>> 24) & 0xff);
  }
  proto() {
    this.chunks.push(0x80, 2);
  }
  stop() {
    this.chunks.push(0x2e);
  }
  mark() {
    this.chunks.push(0x28);
  }
  emptyDict() {
    this.chunks.push(0x7d);
  }
  emptyList() {
    this.chunks.push(0x5d);
  }
  setItems() {
    this.chunks.push(0x75);
  }
  appends() {
    this.chunks.push(0x65);
  }
  int(n: number) {
    this.chunks.push(0x4a);
    this.u32(n);
  }
  float(x: number) {
    const view = new DataView(new ArrayBuffer(8));
    view.setFloat64(0, x, false);
    this.chunks.push(0x47, ...new Uint8Array(view.buffer));
  }
  str(s: string) {
    const bytes = this.text.encode(s);
    this.chunks.push(0x58);
    this.u32(bytes.length);
    this.chunks.push(...bytes);
  }
  global(module: string, name: string) {
    this.chunks.push(0x63, ...this.text.encode(`${module}\n${name}\n`));
  }
  /** `_rebuild_tensor_v2(storage, offset, (n,), (1,), False, OrderedDict())`, the storage by persistent id. */
  tensor(storageClass: string, key: string, numel: number, offset: number, n: number) {
    this.global("torch._utils", "_rebuild_tensor_v2");
    this.mark();
    this.mark();
    this.str("storage");
    const dot = storageClass.lastIndexOf(".");
    this.global(storageClass.slice(0, dot), storageClass.slice(dot + 1));
    this.str(key);
    this.str("cpu");
    this.int(numel);
    this.chunks.push(0x74, 0x51); // TUPLE, BINPERSID
    this.int(offset);
    this.int(n);
    this.chunks.push(0x85); // TUPLE1: the size
    this.int(1);
    this.chunks.push(0x85); // TUPLE1: the stride
    this.chunks.push(0x89); // NEWFALSE: requires_grad
    this.global("collections", "OrderedDict");
    this.chunks.push(0x29, 0x52); // EMPTY_TUPLE, REDUCE
    this.chunks.push(0x74, 0x52); // TUPLE, REDUCE
  }
  bytes(): Uint8Array {
    return Uint8Array.from(this.chunks);
  }
}
