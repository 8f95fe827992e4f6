import type { FieldVerdict, SampleReplay } from "../core";
import type { SlimeDumpCase } from "../io/caseSchema";
import type { CaseVerdict, ElementFigures } from "./checkCase";
import { judgeDumpCaseRewards, replayDumpCase } from "./dumpCaseReplay";
import { NOTHING_COMPARED } from "./nothingToCheck";

/**
 * What a slime_dump verdict says it judged: the values under test are the dump's, so no solver,
 * mode or engine enters it, and the runner must not let a reader think one did.
 */
export const DUMP_CASE_JUDGE =
  "the dump's stored values judged by core's float64 replay of slime (replaySlime), the same in every mode and engine";

/** Failing samples named in a verdict's detail before "… and N more". */
const LISTED_SAMPLES = 5;

type Field = "advantages" | "returns" | "kl";

/**
 * A slime_dump case's verdict: it passes iff replaySlime passes every sample. The figures are the
 * replay's own: each field's worst token (its gap and the tolerance it was held to there), the
 * worst of them over the batch as `worst` and as the max-error figures, since the replay judges a
 * field by its worst token and does not place its largest gap. The detail names every failing
 * sample and field with the replay's cause (a whitening off its shared map, a cancelled variance).
 */
export function checkDumpCase(c: SlimeDumpCase, shape: string): CaseVerdict {
  const base = { name: c.name, kind: c.kind, shape };
  const result = replayDumpCase(c);
  if (!result.ok) {
    return {
      ...base,
      ...NOTHING_COMPARED,
      passed: false,
      detail: `cannot replay: ${result.error}`,
    };
  }
  let worst: (ElementFigures & { failed: boolean }) | null = null;
  let compared = 0;
  const failures: string[] = [];
  result.samples.forEach((s, i) => {
    const failing: string[] = [];
    for (const [field, v] of fieldsOf(s)) {
      compared += s.length;
      const figures = elementFigures(i, field, v);
      if (figures && (worst === null || outranks(figures, worst))) worst = figures;
      if (!v.passed) failing.push(fieldLine(field, v, s.length));
    }
    if (failing.length > 0) failures.push(`sample ${i}: ${failing.join("; ")}`);
  });
  const rewards = judgeDumpCaseRewards(c);
  const rewardsDepart = rewards.checked && !rewards.passed;
  if (rewardsDepart) failures.unshift(`rewards: ${rewards.message}`);
  const w = worst as (ElementFigures & { failed: boolean }) | null;
  const figures = w ? { element: w.element, error: w.error, tolerance: w.tolerance, fraction: w.fraction } : null;
  const listed = failures.slice(0, LISTED_SAMPLES);
  if (failures.length > LISTED_SAMPLES) listed.push(`… and ${failures.length - LISTED_SAMPLES} more failing samples`);
  return {
    ...base,
    maxAbsError: figures?.error ?? null,
    maxErrorElement: figures?.element ?? null,
    toleranceAtMaxError: figures?.tolerance ?? null,
    tolerance: figures?.tolerance ?? null,
    boundFraction: figures?.fraction ?? null,
    worst: figures,
    compared,
    passed: result.passed && !rewardsDepart,
    detail:
      result.passed && !rewardsDepart
        ? DUMP_CASE_JUDGE
        : result.passed
          ? listed.join(" | ")
          : `${failures.length - Number(rewardsDepart)} of ${result.samples.length} samples outside their bounds: ${listed.join(" | ")}`,
  };
}

function fieldsOf(s: SampleReplay): [Field, FieldVerdict][] {
  const fields: [Field, FieldVerdict][] = [
    ["advantages", s.advantages],
    ["returns", s.returns],
  ];
  if (s.kl) fields.push(["kl", s.kl]);
  return fields;
}

/** A field's worst token as case-file figures: `stored[3].returns[17]`; null for an empty field. */
function elementFigures(sample: number, field: Field, v: FieldVerdict): (ElementFigures & { failed: boolean }) | null {
  if (v.worstToken < 0) return null;
  const error = v.worstGap;
  const tolerance = v.worstBound;
  const fraction = error === 0 ? 0 : tolerance > 0 ? error / tolerance : Number.POSITIVE_INFINITY;
  return { element: `stored[${sample}].${field}[${v.worstToken}]`, error, tolerance, fraction, failed: !v.passed };
}

/** A failing field outranks a passing one; then the larger fraction of its tolerance. */
function outranks(a: { failed: boolean; fraction: number }, b: { failed: boolean; fraction: number }): boolean {
  if (a.failed !== b.failed) return a.failed;
  return a.fraction > b.fraction;
}

/** As `scanlab dump` words a failing field, with the replay's cause when it gives one. */
function fieldLine(field: Field, v: FieldVerdict, length: number): string {
  const line = `${field}: ${v.failures} of ${length} tokens outside their bound; worst at token ${v.worstToken}: gap ${num(v.worstGap)}, bound ${num(v.worstBound)}`;
  return v.cause ? `${line} (${v.cause})` : line;
}

function num(x: number): string {
  if (x === 0) return "0";
  return Number.isFinite(x) ? x.toExponential(2) : String(x);
}
