import type { ConventionEstimator, Library } from "../../core";
import { countText } from "../../io/countText";
import type { SideNames } from "../playground/cellErrors";
import type { ConventionOutput, ConventionTables } from "./conventionRun";

export const LIBRARY_LABELS: Record<Library, string> = { slime: "slime", openrlhf: "OpenRLHF", verl: "verl" };

/** The rules in which libraries differ (cases/SCHEMA.md, "Differences at a glance"). */
export type Rule =
  | "reward-index"
  | "reward-clip"
  | "kl-masked"
  | "kl-stored"
  | "carry"
  | "gae-masked"
  | "re-mask"
  | "whitening"
  /** How many values NaN and ±Inf took in each library (left out of every figure). */
  | "non-finite"
  /** The pair's largest difference and where it is (always last). */
  | "largest";

export interface Difference {
  rule: Rule;
  /** The library shown, and the one it is compared with. */
  pair: [Library, Library];
  text: string;
}

/** A run of masked tokens `[start, end]` (inclusive) in a row. */
export interface Span {
  row: number;
  start: number;
  end: number;
}

export interface DifferenceInput {
  estimator: ConventionEstimator;
  rows: number;
  cols: number;
  lengths: ArrayLike<number>;
  masks: ArrayLike<number>[];
  kl: ArrayLike<number>[];
  outcomes: ArrayLike<number>;
  klCoef: number;
  normalize: boolean;
  rewardClip: readonly [number, number] | null;
  /** The row the sentences point at first (the selected one). */
  focusRow: number;
  runs: { library: Library; tables: ConventionTables; rewardIndex: number[] }[];
}

/** Masked runs of a row (mask 0), in token order. */
export function maskedSpans(mask: ArrayLike<number>, row: number): Span[] {
  const spans: Span[] = [];
  for (let t = 0; t < mask.length; t++) {
    if (mask[t] !== 0) continue;
    const start = t;
    while (t + 1 < mask.length && mask[t + 1] === 0) t++;
    spans.push({ row, start, end: t });
  }
  return spans;
}

/** Masked runs with a mask-1 token after them: the holes in the middle (tool outputs between turns). */
export function holes(mask: ArrayLike<number>, row: number): Span[] {
  let last = -1;
  for (let t = mask.length - 1; t >= 0; t--) {
    if (mask[t] === 1) {
      last = t;
      break;
    }
  }
  return maskedSpans(mask, row).filter((span) => span.end < last);
}

/**
 * "the masked tokens 40–57 and 120–133 of row 0 (and 5 more in 3 rows)": the focus row's spans
 * first (or the first row that has any), at most three named.
 */
export function describeSpans(spans: Span[], focusRow: number, what = "masked"): string {
  const rowsWith = [...new Set(spans.map((s) => s.row))];
  const row = rowsWith.includes(focusRow) ? focusRow : rowsWith[0];
  const named = spans.filter((s) => s.row === row);
  const shown = named.slice(0, 3).map((s) => (s.start === s.end ? String(s.start) : `${s.start}–${s.end}`));
  const list = shown.length > 1 ? `${shown.slice(0, -1).join(", ")} and ${shown.at(-1)}` : shown[0];
  const noun = named.length === 1 && named[0].start === named[0].end ? "token" : "tokens";
  let text = `the ${what} ${noun} ${list} of row ${row}`;
  const hidden = named.length - shown.length;
  const elsewhere = spans.length - named.length;
  const otherRows = rowsWith.length - 1;
  if (hidden > 0 && elsewhere > 0) text += ` (${hidden} more there, ${elsewhere} in ${otherRows} other rows)`;
  else if (hidden > 0) text += ` (and ${hidden} more)`;
  else if (elsewhere > 0) text += ` (and ${elsewhere} more in ${otherRows} other row${otherRows === 1 ? "" : "s"})`;
  return text;
}

/**
 * "0.95", the largest |a − b| over the given tokens of a padded table, where both are finite; the
 * tokens NaN or ±Inf took (from non-finite inputs) are left out and counted, never printed as a size.
 */
function largestOver(a: Float64Array, b: Float64Array, cols: number, cells: Iterable<[number, number]>): string {
  let max = 0;
  let lost = 0;
  let measured = 0;
  for (const [row, t] of cells) {
    const x = a[row * cols + t];
    const y = b[row * cols + t];
    if (!Number.isFinite(x) || !Number.isFinite(y)) {
      lost++;
      continue;
    }
    measured++;
    max = Math.max(max, Math.abs(x - y));
  }
  if (lost === 0) return short(max);
  if (measured === 0) return `an amount NaN / ∞ hides (on all ${countText(lost)} of those tokens)`;
  return `${short(max)} (NaN / ∞ on ${countText(lost)} of those tokens, left out)`;
}

function* spanCells(spans: Span[]): Generator<[number, number]> {
  for (const s of spans) for (let t = s.start; t <= s.end; t++) yield [s.row, t];
}

/** Tokens before each row's last hole: those that a cut carry separates from the later rewards. */
function* beforeHoles(spans: Span[]): Generator<[number, number]> {
  const lastStart = new Map<number, number>();
  for (const s of spans) lastStart.set(s.row, Math.max(lastStart.get(s.row) ?? 0, s.start));
  for (const [row, start] of lastStart) for (let t = 0; t < start; t++) yield [row, t];
}

const short = (x: number) =>
  x === 0 ? "0" : Math.abs(x) >= 1e-3 && Math.abs(x) < 1e4 ? String(Number(x.toPrecision(3))) : x.toExponential(2);

/** Where each library puts the outcome reward, for this estimator. */
function rewardPlace(library: Library, estimator: ConventionEstimator): "last mask-1 token" | "last token" {
  if (library === "verl") return "last token";
  if (library === "slime" && estimator === "gae") return "last token";
  return "last mask-1 token";
}

/** Whether a library charges the KL penalty on mask-0 tokens (slime's PPO token rewards do). */
const klOnMasked = (library: Library, estimator: ConventionEstimator) => library === "slime" && estimator === "gae";
/** Whether its token rewards hold the KL penalty of mask-0 tokens (OpenRLHF stores it, then masks it out). */
const klStored = (library: Library, estimator: ConventionEstimator) =>
  library === "openrlhf" || klOnMasked(library, estimator);

/** How a library's GAE treats mask-0 tokens. */
const GAE_MASKED: Record<Library, string> = {
  slime: "runs GAE through them with their own KL penalty and values",
  openrlhf: "zeroes their rewards and values and keeps scanning (returns there are the advantages alone)",
  verl: "skips them: their TD errors are dropped and they show the advantage of the next mask-1 token",
};

/** Whitening: one-pass or two-pass variance, with or without Bessel's correction. */
const WHITENING: Record<Library, { bessel: boolean; passes: 1 | 2 }> = {
  slime: { bessel: true, passes: 1 },
  openrlhf: { bessel: false, passes: 2 },
  verl: { bessel: true, passes: 2 },
};

/**
 * One sentence per rule in which the library shown and each compared library differ on these
 * inputs, naming where on the sequence it bites and by how much the results differ there. Rules
 * whose conditions do not occur (no holes, no outcome outside the clip, no KL) are left out; a
 * closing sentence gives the largest difference of the pair and where it is.
 */
export function describeDifferences(input: DifferenceInput): Difference[] {
  const [shown, ...others] = input.runs;
  if (!shown) return [];
  return others.flatMap((other) => pairDifferences(input, shown, other));
}

function pairDifferences(
  input: DifferenceInput,
  a: DifferenceInput["runs"][number],
  b: DifferenceInput["runs"][number],
): Difference[] {
  const { estimator, cols, masks, focusRow } = input;
  const A = LIBRARY_LABELS[a.library];
  const B = LIBRARY_LABELS[b.library];
  const pair: [Library, Library] = [a.library, b.library];
  const out: Difference[] = [];
  const say = (rule: Rule, text: string) => out.push({ rule, pair, text });
  const allHoles = masks.flatMap((mask, row) => holes(mask, row));
  const allMasked = masks.flatMap((mask, row) => maskedSpans(mask, row));

  // 1. Where the outcome reward lands.
  const moved = a.rewardIndex.flatMap((k, row) => (k !== b.rewardIndex[row] ? [row] : []));
  if (moved.length > 0) {
    const row = moved.includes(focusRow) ? focusRow : moved[0];
    const at = (k: number) => (k >= 0 ? `token ${k}` : "no token");
    const more = moved.length > 1 ? `; ${moved.length} of ${input.rows} rows differ` : "";
    say(
      "reward-index",
      `${A} puts the outcome reward on the ${rewardPlace(a.library, estimator)} (${at(a.rewardIndex[row])} of row ${row}), ${B} on the ${rewardPlace(b.library, estimator)} (${at(b.rewardIndex[row])})${more}.`,
    );
  }

  // 2. OpenRLHF's clamp of the outcome reward.
  const clip = input.rewardClip;
  if (clip && (a.library === "openrlhf") !== (b.library === "openrlhf")) {
    const clipped = Array.from(input.outcomes).flatMap((r, row) => (r < clip[0] || r > clip[1] ? [row] : []));
    if (clipped.length > 0) {
      const row = clipped.includes(focusRow) ? focusRow : clipped[0];
      const r = input.outcomes[row];
      const to = Math.min(Math.max(r, clip[0]), clip[1]);
      const keeper = a.library === "openrlhf" ? B : A;
      const more = clipped.length > 1 ? ` (${clipped.length} rows are clipped)` : "";
      say(
        "reward-clip",
        `OpenRLHF clips the outcome reward to [${clip[0]}, ${clip[1]}]: row ${row}'s ${short(r)} becomes ${short(to)}${more}; ${keeper} keeps it.`,
      );
    }
  }

  // 3. KL penalty on masked tokens (GAE: slime charges it, the others do not; OpenRLHF stores it, then masks it).
  const charged = allMasked.filter((s) => {
    for (let t = s.start; t <= s.end; t++) if (input.kl[s.row][t] !== 0) return true;
    return false;
  });
  const chargesDiffer = klOnMasked(a.library, estimator) !== klOnMasked(b.library, estimator);
  if (chargesDiffer && input.klCoef !== 0) {
    if (charged.length > 0) {
      const [yes, no] = klOnMasked(a.library, estimator) ? [A, B] : [B, A];
      const noLibrary = klOnMasked(a.library, estimator) ? b.library : a.library;
      // OpenRLHF writes the penalty into its token rewards too, and its estimator masks it out.
      const how = klStored(noLibrary, estimator)
        ? `${no} keeps it in its token rewards, but its GAE multiplies them by the mask`
        : `${no} does not (token rewards differ by up to ${largestOver(a.tables.tokenLevelRewards, b.tables.tokenLevelRewards, cols, spanCells(charged))} there)`;
      say("kl-masked", `${yes} charges the KL penalty on ${describeSpans(charged, focusRow)}; ${how}.`);
    }
  } else if (klStored(a.library, estimator) !== klStored(b.library, estimator) && input.klCoef > 0) {
    if (charged.length > 0) {
      const [keeps, zero] = klStored(a.library, estimator) ? [A, B] : [B, A];
      say(
        "kl-stored",
        `${keeps} keeps the KL penalty of ${describeSpans(charged, focusRow)} in its token rewards and masks it out in the estimator; ${zero} writes 0 there (only the token rewards differ).`,
      );
    }
  }

  if (estimator === "reinforce_pp") {
    // 4. The return at a hole: verl cuts it, slime and OpenRLHF carry it through.
    const cuts = (library: Library) => library === "verl";
    if (cuts(a.library) !== cuts(b.library) && allHoles.length > 0) {
      const [cutter, carrier] = cuts(a.library) ? [A, B] : [B, A];
      const diff = largestOver(a.tables.returns, b.tables.returns, cols, beforeHoles(allHoles));
      say(
        "carry",
        `${cutter} cuts the return at ${describeSpans(allHoles, focusRow)}; ${carrier} carries it through, so the tokens before a hole differ by up to ${diff} in their returns.`,
      );
    }
    // 5. verl zeroes the advantages of masked tokens.
    if (cuts(a.library) !== cuts(b.library) && allMasked.length > 0) {
      const [masker, keeper] = cuts(a.library) ? [A, B] : [B, A];
      const diff = largestOver(a.tables.advantages, b.tables.advantages, cols, spanCells(allMasked));
      say(
        "re-mask",
        `${masker} sets the advantages of ${describeSpans(allMasked, focusRow)} to 0; ${keeper} keeps them (they differ by up to ${diff} there).`,
      );
    }
  } else if (allMasked.length > 0) {
    // 4'. GAE on masked tokens: three different treatments.
    const diff = largestOver(a.tables.advantages, b.tables.advantages, cols, spanCells(allMasked));
    say(
      "gae-masked",
      `On ${describeSpans(allMasked, focusRow)}, ${A} ${GAE_MASKED[a.library]}; ${B} ${GAE_MASKED[b.library]} (advantages differ by up to ${diff} there).`,
    );
  }

  // 6. Whitening formulas.
  if (input.normalize) {
    const wa = WHITENING[a.library];
    const wb = WHITENING[b.library];
    const n = countValid(masks);
    if (wa.bessel !== wb.bessel) {
      const [withB, without] = wa.bessel ? [A, B] : [B, A];
      say(
        "whitening",
        `On every token, ${without} whitens the advantages without Bessel's correction (variance over N = ${n} mask-1 tokens) and ${withB} with it (over N − 1): a factor of √(N/(N−1)) = ${(Math.sqrt(n / Math.max(1, n - 1))).toFixed(5)} on the whitened values.`,
      );
    } else if (wa.passes !== wb.passes) {
      const [one, two] = wa.passes === 1 ? [A, B] : [B, A];
      say(
        "whitening",
        `${one} computes the whitening variance in one pass (Σa²/N − μ², which loses digits in float32 when |μ| ≫ σ), ${two} in two; in exact arithmetic they agree.`,
      );
    }
  }

  // The size and place of the whole disagreement, over the values both computed.
  const worst = largestDifference(a.tables, b.tables, input.lengths, cols);
  const { a: lostA, b: lostB, both } = worst.nonFinite;
  if (lostA + lostB > 0) {
    say(
      "non-finite",
      `NaN / ∞ in the inputs: ${A} loses ${countText(lostA)} values, ${B} ${countText(lostB)} (${countText(both)} in both), each where its own rules carry them; they are left out of every figure here.`,
    );
  }
  const where = `in the ${OUTPUT_WORDS[worst.output]} at row ${worst.row}, token ${worst.token}`;
  const finite = lostA + lostB > 0 ? " where both are finite" : "";
  say(
    "largest",
    worst.value === 0
      ? `${A} and ${B} give the same returns, advantages and token rewards on these inputs${finite}.`
      : worst.value <= ROUNDING_LEVEL * worst.scale
        ? `${A} and ${B} agree up to float64 rounding on these inputs (largest difference ${short(worst.value)} ${where}: their scans add in different orders).`
        : `Largest difference |${B} − ${A}|${finite}: ${short(worst.value)} ${where}.`,
  );
  return out;
}

const OUTPUT_WORDS: Record<ConventionOutput, string> = {
  returns: "returns",
  advantages: "advantages",
  tokenLevelRewards: "token rewards",
};

function countValid(masks: ArrayLike<number>[]): number {
  let n = 0;
  for (const mask of masks) for (let t = 0; t < mask.length; t++) n += mask[t];
  return n;
}

/** A difference this small against the largest value is float64 rounding, not a rule (summation order). */
const ROUNDING_LEVEL = 1e-12;

/**
 * Largest |b − a| over every valid token of every output where both are finite, where, the largest
 * |value| (its scale), and how many values are NaN or ±Inf in a, in b and in both (left out).
 */
export function largestDifference(
  a: ConventionTables,
  b: ConventionTables,
  lengths: ArrayLike<number>,
  cols: number,
): {
  value: number;
  output: ConventionOutput;
  row: number;
  token: number;
  scale: number;
  nonFinite: { a: number; b: number; both: number };
} {
  let best = { value: 0, output: "returns" as ConventionOutput, row: 0, token: 0 };
  let scale = 0;
  const nonFinite = { a: 0, b: 0, both: 0 };
  for (const output of ["returns", "advantages", "tokenLevelRewards"] as const) {
    for (let row = 0; row < lengths.length; row++) {
      for (let token = 0; token < lengths[row]; token++) {
        const x = a[output][row * cols + token];
        const y = b[output][row * cols + token];
        const lostX = !Number.isFinite(x);
        const lostY = !Number.isFinite(y);
        if (lostX || lostY) {
          nonFinite.a += lostX ? 1 : 0;
          nonFinite.b += lostY ? 1 : 0;
          nonFinite.both += lostX && lostY ? 1 : 0;
          continue;
        }
        const d = Math.abs(y - x);
        scale = Math.max(scale, Math.abs(x), Math.abs(y));
        if (d > best.value) best = { value: d, output, row, token };
      }
    }
  }
  return { ...best, scale, nonFinite };
}

const LIBRARY_SIDES = new Map<string, SideNames>();

/** The two libraries the difference heatmap subtracts, as its legend and readouts name them (one object per pair). */
export function librarySides(shown: Library, other: Library): SideNames {
  const key = `${shown}-${other}`;
  let sides = LIBRARY_SIDES.get(key);
  if (!sides) {
    sides = { reference: LIBRARY_LABELS[shown], actual: LIBRARY_LABELS[other], gap: "difference" };
    LIBRARY_SIDES.set(key, sides);
  }
  return sides;
}

/** The sentences of each compared pair, in order. */
export function pairsOf(sentences: Difference[]): [Difference["pair"], Difference[]][] {
  const groups = new Map<string, [Difference["pair"], Difference[]]>();
  for (const d of sentences) {
    const key = d.pair.join("-");
    const group = groups.get(key) ?? [d.pair, []];
    group[1].push(d);
    groups.set(key, group);
  }
  return [...groups.values()];
}
