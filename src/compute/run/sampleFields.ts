import type { FloatArray } from "../../core";

/**
 * Every per-token field of one sample, on one token axis: what slime stored for it (read off the
 * dump) and, beside the advantages, the returns and the KL, what Scanlab's float64 replay computed.
 * Each line says which engine made its numbers.
 */

/** The per-token fields a train dump can store, in slime's names (DUMPS.md §1). */
export type StoredFieldName =
  | "advantages"
  | "returns"
  | "log_probs"
  | "ref_log_probs"
  | "rollout_log_probs"
  | "entropy"
  | "kl"
  | "values"
  | "loss_masks";

/** One sample's stored per-token fields, as the worker hands them over (absent: the dump stores none). */
export type StoredFields = Partial<Record<StoredFieldName, FloatArray>>;

export interface SampleFieldsAnswer {
  ok: true;
  sample: number;
  length: number;
  fields: StoredFields;
  /** The float64 replay's lines for this sample (the KL only where replayed); the page holds no grid to read them off. */
  replayed?: ReplayedLines | null;
  /** The worker's replay the lines are of (RunReport.replayId); absent with no lines. */
  replay?: number;
}

/** The order the fields are listed and drawn in: outputs first, then what the KL and the estimator read. */
export const FIELD_ORDER: readonly StoredFieldName[] = [
  "advantages",
  "returns",
  "values",
  "kl",
  "log_probs",
  "ref_log_probs",
  "rollout_log_probs",
  "entropy",
  "loss_masks",
];

const LABELS: Record<StoredFieldName, string> = {
  advantages: "advantages",
  returns: "returns",
  values: "values (critic)",
  kl: "KL",
  log_probs: "log_probs",
  ref_log_probs: "ref_log_probs",
  rollout_log_probs: "rollout_log_probs",
  entropy: "entropy",
  loss_masks: "loss mask",
};

/** Shown first: the two outputs, the KL and the log-probs it is made of, the entropy slime's #85 asks for. */
const SHOWN_FIRST = new Set<StoredFieldName>(["advantages", "returns", "kl", "log_probs", "ref_log_probs", "entropy"]);

export const STORED_ENGINE = "slime's stored float32 (the dump)";
export const REPLAY_ENGINE = "Scanlab's float64 replay (core, serial loops, in this page's worker)";
export const KL_REPLAY_ENGINE = "compute_approx_kl of the stored log-probs, recomputed by Scanlab in float64";

/** One line of a field's chart: its values and the engine that made them. */
export interface FieldLine {
  values: FloatArray;
  engine: string;
  role: "stored" | "replayed";
}

export interface TokenField {
  name: StoredFieldName;
  label: string;
  /** The replayed line first (when there is one), then the stored one. */
  lines: FieldLine[];
}

/** The replay's references for this sample (null: that field was not replayed). */
export interface ReplayedLines {
  advantages: Float64Array | null;
  returns: Float64Array | null;
  kl: Float64Array | null;
}

/** The sample's fields in FIELD_ORDER, only those it has; a replayed line only where its length matches. */
export function tokenFields(stored: StoredFields, replayed: ReplayedLines, length: number): TokenField[] {
  const out: TokenField[] = [];
  for (const name of FIELD_ORDER) {
    const lines: FieldLine[] = [];
    const again = name === "advantages" || name === "returns" || name === "kl" ? replayed[name] : null;
    if (again && again.length === length)
      lines.push({ values: again, engine: name === "kl" ? KL_REPLAY_ENGINE : REPLAY_ENGINE, role: "replayed" });
    const values = stored[name];
    if (values && values.length === length) lines.push({ values, engine: STORED_ENGINE, role: "stored" });
    if (lines.length > 0) out.push({ name, label: LABELS[name], lines });
  }
  return out;
}

/** The fields drawn until the user picks: the usual ones the sample has (all of them if it has none of those). */
export function firstPicked(fields: readonly TokenField[]): StoredFieldName[] {
  const usual = fields.filter((f) => SHOWN_FIRST.has(f.name)).map((f) => f.name);
  return usual.length > 0 ? usual : fields.map((f) => f.name);
}

/** One grid field of the selected sample, for its chart: as the padded grid's row held it. */
export interface SampleSeries {
  reference: Float64Array;
  actual: Float64Array;
  lossMask: Uint8Array;
}

/**
 * The sample's row of a grid field, from its fields answer (the page holds no grid): float32 widened,
 * zeros for a side the dump lacks, the loss mask as bytes, like the grid's. `referenceIs` zero: the
 * KL was not recomputed, and the reference is zeros (the chart draws the stored KL alone). Null when
 * a replayed field's line did not come.
 */
export function sampleSeries(
  answer: SampleFieldsAnswer,
  grid: { field: "advantages" | "returns" | "kl"; referenceIs: "replayed" | "zero" },
): SampleSeries | null {
  const { length } = answer;
  const replayed = grid.referenceIs === "replayed" ? (answer.replayed?.[grid.field] ?? null) : null;
  if (grid.referenceIs === "replayed" && !replayed) return null;
  // One typed copy, not a loop through an optional read per token (10 ms of a 16k-token sample's selection).
  const widen = (values: FloatArray | null | undefined) => {
    const out = new Float64Array(length);
    const n = Math.min(length, values?.length ?? 0);
    if (values && n > 0) out.set(n < values.length ? values.subarray(0, n) : values);
    return out;
  };
  const lossMask = new Uint8Array(length);
  const mask = answer.fields.loss_masks;
  if (mask) lossMask.set(mask.length > length ? mask.subarray(0, length) : mask);
  return { reference: widen(replayed), actual: widen(answer.fields[grid.field]), lossMask };
}
