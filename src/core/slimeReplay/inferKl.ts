import { lengthOf } from "./fieldLengths";
import { approxKl, klErrorBound } from "./klReplay";
import { type KlInputs, klSourceOf } from "./klSource";
import { KL_LOSS_TYPES, type SlimeSettings } from "./settings";

/** What the stored KL says about kl_coef, the KL formula and its log-probs. */
export interface KlRead {
  settings: Partial<SlimeSettings>;
  /** The stored KL is exactly zero on every finite token (or there is none). */
  zero: boolean;
  /** kl_coef = 0 is decided by the zeros themselves (slime makes zeros only when kl_coef is 0). */
  coefIsZero: boolean;
  /** The stored KL is nonzero, log-probs are there to recompute it, and no formula reproduces it (klByFit then reads it from the returns). */
  unexplained: boolean;
  notIdentifiable: Partial<Record<keyof SlimeSettings, string>>;
  notes: string[];
}

/**
 * slime stores zeros for the KL when kl_coef is 0 (and only then, unless the log-probs equal the
 * reference's); otherwise the formula and the log-probs that reproduce the stored KL (klSourceOf).
 */
export function readKl(samples: KlInputs[]): KlRead {
  const out: KlRead = {
    settings: {},
    zero: true,
    coefIsZero: false,
    unexplained: false,
    notIdentifiable: {},
    notes: [],
  };
  let stored = false;
  for (const s of samples) {
    // Whether it is there, said without reading it where the sample says its lengths (FIELD_LENGTHS):
    // once a nonzero KL is found, the rest of the batch is not read.
    if (lengthOf(s, "kl") === undefined) continue;
    stored = true;
    if (!out.zero) continue;
    // Read once: a sample's kl may be a getter (inferSettings passes each fit's KL through one).
    const kl = s.kl as ArrayLike<number>;
    for (let t = 0; t < kl.length; t++) {
      if (Number.isFinite(kl[t]) && kl[t] !== 0) {
        out.zero = false;
        break;
      }
    }
  }
  const why = stored ? "the KL is zero everywhere" : "the dump stores no KL";
  if (out.zero) {
    out.notIdentifiable.klLossType = `kl_loss_type: ${why}`;
    out.notIdentifiable.useRolloutLogprobs = `use_rollout_logprobs: ${why}`;
    const hasRef = samples.some((s) => s.refLogProbs);
    // Zeros decide kl_coef 0 only when every log-prob source a run could use (the actor's, and
    // the rollout engine's under --use-rollout-logprobs) differs from the reference somewhere.
    const sources = (["logProbs", "rolloutLogProbs"] as const).filter((k) => samples.some((s) => s[k]));
    const differ = sources.length > 0 && sources.every((k) => samples.some((s) => differsFromRef(s[k], s.refLogProbs)));
    if (stored && differ) {
      out.coefIsZero = true;
      out.settings.klCoef = 0;
      out.notes.push(
        "kl_coef 0: the stored KL is zero where log_probs and ref_log_probs differ (slime zeroes it when kl_coef is 0)",
      );
    } else if (stored && !hasRef) {
      out.coefIsZero = true;
      out.settings.klCoef = 0;
      out.notes.push(
        "kl_coef 0: the stored KL is zero and there are no ref_log_probs (slime loads a reference model for a KL penalty)",
      );
    } else {
      out.notIdentifiable.klCoef = stored
        ? "kl_coef: the KL is zero everywhere (log_probs equal ref_log_probs): any kl_coef gives these numbers"
        : "kl_coef: the dump stores no KL";
    }
    return out;
  }
  const source = klSourceOf(samples);
  if (!source) {
    const canCompare = samples.some((s) => s.kl && s.refLogProbs && (s.logProbs || s.rolloutLogProbs));
    const reason = canCompare
      ? "no KL formula on log_probs or rollout_log_probs reproduces the stored kl"
      : "no log_probs and ref_log_probs to recompute the KL from";
    out.notIdentifiable.klLossType = `kl_loss_type: ${reason}`;
    out.notIdentifiable.useRolloutLogprobs = `use_rollout_logprobs: ${reason}`;
    out.unexplained = canCompare;
    return out;
  }
  out.settings.klLossType = source.type;
  out.settings.useRolloutLogprobs = source.rollout;
  const types = source.alike.filter((a) => a.rollout === source.rollout && a.type !== source.type).map((a) => a.type);
  if (types.length > 0) {
    out.notIdentifiable.klLossType = `kl_loss_type: ${[source.type, ...types].join(" and ")} give the same KL on this dump (no value reaches low_var_kl's clamp at ±10); kept ${source.type}`;
  }
  if (source.alike.some((a) => a.rollout !== source.rollout)) {
    out.notIdentifiable.useRolloutLogprobs =
      "use_rollout_logprobs: rollout_log_probs and log_probs give the same KL on this dump";
  }
  return out;
}

/**
 * Whether some token's KL is nonzero in float32 under every formula: its float64 value exceeds
 * torch's float32 error (a small difference can cancel to an exact 0 in k3's `e^(−x) − 1 + x`).
 */
function differsFromRef(a: ArrayLike<number> | undefined, ref: ArrayLike<number> | undefined): boolean {
  if (!a || !ref || a.length !== ref.length) return false;
  for (let t = 0; t < a.length; t++) {
    if (!Number.isFinite(a[t] - ref[t]) || a[t] === ref[t]) continue;
    const lp = [a[t]];
    const r = [ref[t]];
    if (KL_LOSS_TYPES.every((type) => Math.abs(approxKl(lp, r, type)[0]) > klErrorBound(lp, r, type)[0])) return true;
  }
  return false;
}
