import { TensorFileError } from "../tensorFiles/tensorFileError";
import { isTensor, type PyDict, type PyValue, type Tensor, type TensorData } from "../tensorFiles/tensorTypes";
import { exactElements, kindOf } from "./fieldReaders";
import { isRankDump, rankDumpIdentity } from "./rankFiles";

/**
 * The per-token fields the trainer computes on its context-parallel slice (and, for the rollout's
 * log-probs, slices when it reads them: `_get_rollout_data`): each rank's file holds its own piece of
 * these. `loss_masks` and `tokens` travel whole.
 */
export const CP_LOCAL_FIELDS = [
  "log_probs",
  "ref_log_probs",
  "rollout_log_probs",
  "teacher_log_probs",
  "values",
  "kl",
  "advantages",
  "returns",
  "entropy",
  "ref_entropy",
] as const;
export type CpLocalField = (typeof CP_LOCAL_FIELDS)[number];

/** Columns that are not one value per local sample: the whole batch's raw rewards and the training schedule. */
const NOT_PER_SAMPLE = new Set(["raw_reward", "global_batch_sizes", "num_microbatches", "micro_batch_indices"]);

export type FloatData = Float32Array | Float64Array;

/** One rank's file, its columns read and checked (every refusal names the file and `rollout_data.<field>[i]`). */
export interface RankColumns {
  source: string;
  step: number;
  rank: number;
  /** Local samples (this rank's data-parallel shard). */
  count: number;
  responseLengths: number[];
  /** Prompt + response, per local sample; null when the file has no total_lengths. */
  totalLengths: number[] | null;
  /** slime's Sample.index of each local sample; null when the column is missing or holds a None. */
  sampleIndices: number[] | null;
  tokens: (Tensor | null)[];
  lossMasks: Tensor[];
  /** Per-token fields present, each one array per local sample (as long as this rank's slice). */
  fields: Map<CpLocalField, FloatData[]>;
  /** Other per-sample values (rewards, truncated, local_raw_reward, …), one per local sample. */
  scalars: Map<string, PyValue[]>;
  /** The whole batch's raw rewards (rollout order), when the file has them. */
  rawReward: number[] | null;
}

/** Reads one per-rank file's `rollout_data` columns. */
export function readRankColumns(root: PyValue, source: string): RankColumns {
  if (!isRankDump(root)) {
    throw new TensorFileError(
      "",
      "is no per-rank train dump: its object is not {rollout_id, rank, rollout_data}",
      source,
    );
  }
  const { step, rank } = rankDumpIdentity(root, source);
  const data = root.get("rollout_data") as PyDict;
  const col = new ColumnReader(source, data);
  const responseLengths = col.lengths("response_lengths");
  const count = responseLengths.length;
  col.count = count;
  const totalLengths = data.has("total_lengths") ? col.lengths("total_lengths") : null;
  totalLengths?.forEach((T, i) => {
    if (T < responseLengths[i])
      col.fail(`total_lengths[${i}]`, `is ${T}, less than the response's ${responseLengths[i]}`);
  });
  const indices = data.has("sample_indices") ? col.list("sample_indices") : null;
  const sampleIndices = indices?.every((v) => typeof v === "number" && Number.isSafeInteger(v))
    ? (indices as number[])
    : null;
  const lossMasks = col.list("loss_masks").map((v, i) => {
    const at = `loss_masks[${i}]`;
    if (!isTensor(v) || v.shape.length !== 1) return col.fail(at, `is ${kindOf(v)}, not a 1-D tensor`);
    const mask = col.exact(at, v);
    if (mask.length !== responseLengths[i])
      col.fail(at, `has ${mask.length} tokens, the response has ${responseLengths[i]}`);
    if (mask.some((m) => m !== 0 && m !== 1)) col.fail(at, "holds a value other than 0 and 1");
    return v;
  });
  // What the train dump's reader takes as numbers: checked here, where the message can name this file.
  col.numbers("rewards", false);
  if (data.has("local_raw_reward")) col.numbers("local_raw_reward", true);
  const tokens = data.has("tokens")
    ? col.list("tokens").map((v, i) => (isTensor(v) && col.exact(`tokens[${i}]`, v) ? v : null))
    : lossMasks.map(() => null);
  const fields = new Map<CpLocalField, FloatData[]>();
  for (const key of CP_LOCAL_FIELDS) {
    if (data.has(key) && data.get(key) !== null) fields.set(key, col.perToken(key));
  }
  const scalars = new Map<string, PyValue[]>();
  for (const [key, value] of data) {
    if (typeof key !== "string" || NOT_PER_SAMPLE.has(key) || fields.has(key as CpLocalField)) continue;
    if (["tokens", "loss_masks", "response_lengths", "total_lengths", "sample_indices"].includes(key)) continue;
    if (Array.isArray(value) && value.length === count && value.every(isScalar)) scalars.set(key, value);
  }
  const raw = data.get("raw_reward");
  const rawReward = Array.isArray(raw) && raw.every((v) => typeof v === "number") ? (raw as number[]) : null;
  return {
    source,
    step,
    rank,
    count,
    responseLengths,
    totalLengths,
    sampleIndices,
    tokens,
    lossMasks,
    fields,
    scalars,
    rawReward,
  };
}

function isScalar(v: PyValue): boolean {
  return typeof v === "number" || typeof v === "boolean" || typeof v === "string" || v === null;
}

class ColumnReader {
  count = -1;

  constructor(
    readonly source: string,
    readonly data: PyDict,
  ) {}

  fail(at: string, detail: string): never {
    throw new TensorFileError(`field rollout_data.${at}`, detail, this.source);
  }

  /** A tensor's elements read here, refused where an int64 a float64 would round is among them. */
  exact(at: string, tensor: Tensor): TensorData {
    return exactElements(tensor, (detail) => this.fail(at, detail));
  }

  /** A column of one entry per local sample (a list; a 1-D tensor for columns of numbers). */
  list(key: string): PyValue[] {
    const value = this.data.get(key);
    const list: PyValue[] | null = Array.isArray(value)
      ? value
      : isTensor(value) && value.shape.length === 1
        ? Array.from(this.exact(key, value))
        : null;
    if (list === null) return this.fail(key, value === undefined ? "is missing" : `is ${kindOf(value)}, not a list`);
    if (this.count >= 0 && list.length !== this.count)
      this.fail(key, `has ${list.length} entries, rollout_data.response_lengths ${this.count}`);
    return list;
  }

  /** A number per local sample (None allowed where `orNone`). */
  numbers(key: string, orNone: boolean): void {
    this.list(key).forEach((v, i) => {
      if (typeof v !== "number" && !(orNone && v === null)) this.fail(`${key}[${i}]`, `is ${kindOf(v)}, not a number`);
    });
  }

  lengths(key: string): number[] {
    return this.list(key).map((v, i) => {
      if (typeof v !== "number" || !Number.isSafeInteger(v) || v < 0)
        this.fail(`${key}[${i}]`, `is ${String(v)}, not a length`);
      return v;
    });
  }

  /** One float array per local sample: a 1-D tensor (float32 stays float32) or a list of numbers. */
  perToken(key: string): FloatData[] {
    return this.list(key).map((v, i) => {
      if (isTensor(v) && v.shape.length === 1) {
        const data = this.exact(`${key}[${i}]`, v);
        return data instanceof Float32Array || data instanceof Float64Array ? data : Float64Array.from(data);
      }
      if (Array.isArray(v) && v.every((x) => typeof x === "number")) return Float64Array.from(v as number[]);
      return this.fail(`${key}[${i}]`, `is ${kindOf(v)}, not a 1-D tensor`);
    });
  }
}
