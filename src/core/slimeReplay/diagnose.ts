import { SUBNORMAL_STEP, UNIT_ROUNDOFF } from "../errorBound";
import { ScanInputError } from "../validation";
import { type ReplayBounds, replayBounds } from "./replayBounds";
import { type ReplayReference, replayReference } from "./replayReference";
import type { ReplaySample, SlimeSettings } from "./settings";
import { slimeRewards } from "./slimeRewards";
import { KNOWN_VARIANTS } from "./variants";
import type { KnownVariant, VariantReference, VariantStage } from "./variants/knownVariant";

/** What a dump stored for one sample, widened to float64. */
export interface StoredFields {
  /** The reward after `_post_process_rewards` (the dump's `rewards`). */
  rewards?: number;
  kl?: ArrayLike<number>;
  advantages: ArrayLike<number>;
  returns: ArrayLike<number>;
}

export type DiagnosedField = "rewards" | "kl" | "returns" | "advantages";

export interface VariantMatch {
  variant: { id: string; title: string; source: string; stage: VariantStage };
  /** Samples that depart from slime's semantics and that this variant reproduces. */
  samplesMatched: number[];
  /** Samples whose stored fields, of those this variant changes, depart from slime's semantics. */
  samplesDeparting: number[];
  /** Samples stored as slime computes them where this variant would have stored something else. */
  samplesContradicting: number[];
  /** The fields that depart in the matched samples, in the order rewards, kl, returns, advantages. */
  fields: DiagnosedField[];
}

export interface Diagnosis {
  /** Every variant that reproduces at least one departing sample, the one explaining most first. */
  matches: VariantMatch[];
  best: VariantMatch | null;
  /** Samples whose stored fields depart from slime's semantics in any field. */
  samplesDeparting: number[];
  sentence: string;
}

const FIELDS: DiagnosedField[] = ["rewards", "kl", "returns", "advantages"];
const u = UNIT_ROUNDOFF.float32;
const eta = SUBNORMAL_STEP.float32;

/** Relative tolerance where replayBounds has no finite bound for a token. */
const RELATIVE_FALLBACK = 1e-5;

/**
 * Which known variant (a bug of slime or a peer, variants/) reproduces a dump's stored numbers
 * where they depart from slime's semantics. A sample matches a variant when every field the
 * variant changes is within tolerance of the variant's value and at least one of those fields is
 * outside tolerance of slime's (replayReference): the variant explains a departure. A match is a
 * diagnosis, never a pass.
 *
 * Tolerance per token: replayBounds' float32 bound for slime's semantics where finite, else 1e-5
 * of the field's scale (the largest |value| of the sample's field in the reference compared with),
 * plus a float32 floor of 4 ulps of the values compared; a variant that stores on a coarser grid
 * (`resolution`, bfloat16's 2^-8) is allowed that much of its field's scale instead when larger.
 * Where the bound is infinite (slime's float32 whitening cancels) a finite stored value does not
 * depart from slime, as in replayVerdict; a NaN does.
 */
export function diagnose(
  samples: ReplaySample[],
  stored: StoredFields[],
  settings: SlimeSettings,
  variants: KnownVariant[] = KNOWN_VARIANTS,
): Diagnosis {
  let slime: ReplayReference;
  let bounds: ReplayBounds;
  try {
    slime = replayReference(samples, settings);
    bounds = replayBounds(samples, settings, slime);
  } catch (error) {
    if (!(error instanceof ScanInputError)) throw error;
    return {
      matches: [],
      best: null,
      samplesDeparting: [],
      sentence: `slime's semantics cannot be replayed on these samples (${error.message}), so no departure can be named`,
    };
  }
  const rewards = slimeRewards(samples, settings);
  const rewardScale = rewards ? Math.max(0, ...Array.from(rewards, Math.abs).filter(Number.isFinite)) : 0;
  const slimeField = (f: DiagnosedField, i: number): ArrayLike<number> | null => {
    if (f === "rewards") return rewards ? [rewards[i]] : null;
    return slime[f][i];
  };
  const boundOf = (f: DiagnosedField, i: number): ArrayLike<number> | null => {
    if (f === "rewards") return null;
    if (f === "kl") return bounds.kl[i];
    return bounds[f][i];
  };
  const storedField = (f: DiagnosedField, i: number): ArrayLike<number> | null => {
    const s = stored[i];
    if (f === "rewards") return s.rewards === undefined ? null : [s.rewards];
    return s[f] ?? null;
  };
  const scaleOf = (f: DiagnosedField, values: ArrayLike<number>) => (f === "rewards" ? rewardScale : maxAbs(values));

  // Departure from slime's semantics, per sample and field.
  const departs = samples.map((_, i) =>
    FIELDS.map((f) => {
      const s = storedField(f, i);
      const want = slimeField(f, i);
      if (!s || !want) return false;
      return !within(s, want, boundOf(f, i), scaleOf(f, want), 0, true);
    }),
  );
  const samplesDeparting = samples.map((_, i) => i).filter((i) => departs[i].some(Boolean));

  const matches: VariantMatch[] = [];
  for (const variant of variants) {
    let reference: VariantReference;
    try {
      if (!variant.applies(samples, settings)) continue;
      reference = variant.reference(samples, settings);
    } catch (error) {
      if (error instanceof ScanInputError) continue;
      throw error;
    }
    const fields = FIELDS.filter((f) => reference[f] !== undefined);
    const match: VariantMatch = {
      variant: { id: variant.id, title: variant.title, source: variant.source, stage: variant.stage },
      samplesMatched: [],
      samplesDeparting: [],
      samplesContradicting: [],
      fields: [],
    };
    const matchedFields = new Set<DiagnosedField>();
    samples.forEach((_, i) => {
      let departing = false;
      let consistent = true;
      for (const f of fields) {
        const s = storedField(f, i);
        const want = variantField(reference, f, i);
        if (!s || !want) continue;
        const fi = FIELDS.indexOf(f);
        departing ||= departs[i][fi];
        const scale = scaleOf(f, want);
        if (!within(s, want, boundOf(f, i), scale, (variant.resolution ?? 0) * scale)) consistent = false;
      }
      if (departing) match.samplesDeparting.push(i);
      if (departing && consistent) {
        match.samplesMatched.push(i);
        for (const f of fields) if (departs[i][FIELDS.indexOf(f)]) matchedFields.add(f);
      }
      if (!departing && !consistent) match.samplesContradicting.push(i);
    });
    match.fields = FIELDS.filter((f) => matchedFields.has(f));
    if (match.samplesMatched.length > 0) matches.push(match);
  }
  matches.sort(
    (a, b) =>
      b.samplesMatched.length - a.samplesMatched.length ||
      a.samplesContradicting.length - b.samplesContradicting.length,
  );
  const best = matches[0] ?? null;
  return { matches, best, samplesDeparting, sentence: sentenceOf(matches, samplesDeparting.length, samples.length) };
}

function variantField(reference: VariantReference, f: DiagnosedField, i: number): ArrayLike<number> | null {
  if (f === "rewards") return reference.rewards ? [reference.rewards[i]] : null;
  return reference[f]?.[i] ?? null;
}

function maxAbs(values: ArrayLike<number>): number {
  let m = 0;
  for (let t = 0; t < values.length; t++) if (Number.isFinite(values[t])) m = Math.max(m, Math.abs(values[t]));
  return m;
}

/**
 * Every stored value within tolerance of the wanted one: the bound where finite, else 1e-5 of the
 * scale, at least `coarse`, plus 4 float32 ulps of the two values. Non-finite values must agree
 * in kind (a NaN the reference predicts is matched only by a NaN). With `unboundedPasses` (the
 * departure test) a finite value under an infinite bound passes, as replayVerdict passes it.
 */
function within(
  stored: ArrayLike<number>,
  want: ArrayLike<number>,
  bound: ArrayLike<number> | null,
  scale: number,
  coarse: number,
  unboundedPasses = false,
): boolean {
  if (stored.length !== want.length) return false;
  for (let t = 0; t < want.length; t++) {
    const s = stored[t];
    const w = want[t];
    if (!Number.isFinite(w) || !Number.isFinite(s)) {
      if (!(Object.is(s, w) || (Number.isNaN(s) && Number.isNaN(w)))) return false;
      continue;
    }
    const b = bound?.[t];
    // An infinite bound (slime's float32 whitening cancelling) pins nothing: no departure there.
    if (unboundedPasses && b === Number.POSITIVE_INFINITY) continue;
    const base = b !== undefined && Number.isFinite(b) ? b : RELATIVE_FALLBACK * scale;
    const tolerance = Math.max(base, coarse) + 4 * u * (Math.abs(s) + Math.abs(w)) + eta;
    if (Math.abs(s - w) > tolerance) return false;
  }
  return true;
}

function fieldList(fields: DiagnosedField[]): string {
  if (fields.length <= 1) return fields[0] ?? "fields";
  return `${fields.slice(0, -1).join(", ")} and ${fields[fields.length - 1]}`;
}

function sentenceOf(matches: VariantMatch[], departing: number, total: number): string {
  if (departing === 0)
    return `the stored fields of all ${total} samples follow slime's semantics: no known variant is needed`;
  const best = matches[0];
  if (!best) {
    return `${departing} of ${total} samples depart from slime's semantics and no known variant reproduces them`;
  }
  const name = (m: VariantMatch) => `${m.variant.title} (${m.variant.source})`;
  const verb = best.fields.length === 1 && best.fields[0] === "kl" ? "matches" : "match";
  let out = `the stored ${fieldList(best.fields)} ${verb} ${name(best)}, in ${best.samplesMatched.length} of ${departing} samples`;
  if (departing !== total) out += ` that depart from slime's semantics (of ${total})`;
  const others = matches.slice(1).map((m) => `${name(m)} in ${m.samplesMatched.length}`);
  if (others.length > 0) out += `; also consistent: ${others.join(", ")}`;
  return out;
}
