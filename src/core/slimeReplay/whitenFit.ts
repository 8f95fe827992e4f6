import { SUBNORMAL_STEP, UNIT_ROUNDOFF } from "../errorBound";
import { ACCURACY_THRESHOLD } from "./replayVerdict";
import type { WhitenBoundStats } from "./slimeWhitenBound";

/**
 * The whitening checked as what it is: one affine map shared by every token of the batch,
 * `a_t = rs·(x_t − μ)`. The error of μ and rs is one unknown, not slack for every token, so the map
 * slime used is fitted from the stored values themselves (least squares of stored against raw), each
 * token is held to its own rounding around that fit, and the two fitted scalars are judged against
 * their float64 values with their float32 bound (or, where that bound is wide or infinite, the
 * accuracy threshold). An edit of 1e-3 at one whitened advantage is then 10³× its tolerance, where
 * the per-element bound of the whitening (ρ·|x − μ|·rs, up to 1e-2 on real dumps) let it pass.
 */
export interface WhitenFit {
  /** Tokens used: finite stored and raw values. */
  used: number;
  /** The fitted slope (slime's float32 rs) and its bound from the tokens' own errors. */
  slope: number;
  slopeError: number;
  /** The fitted value at the raw values' centre, and its bound. */
  centre: number;
  centreError: number;
  /** Per sample, 1 where a token lies off the fitted map by more than its rounding allows. */
  offLine: Uint8Array[];
  /** The largest |stored − fitted| over the tokens off the line, and where (sample, token). */
  worstOffLine: { sample: number; token: number; gap: number; tolerance: number } | null;
  /** The scalars against their exact values: null when they agree, else what differs, in words. */
  scalarProblem: string | null;
}

/**
 * The advantages before whitening and their float32 bounds, a sample's row at a time: rows
 * recomputed from the dump on each read (storedRaw) need not be kept for the whole batch, two
 * float64 rows per sample (70 MB at 4.4 M tokens). A row read may be rewritten by the next read: it is
 * used before another is asked for.
 */
export interface RawRows {
  count: number;
  row(i: number): { raw: Float64Array; errors: Float64Array };
}

/** Rows kept whole. */
export function rawRowsOf(raw: Float64Array[], errors: Float64Array[]): RawRows {
  return { count: raw.length, row: (i) => ({ raw: raw[i], errors: errors[i] }) };
}

/**
 * Fits the whitening slime applied and checks it. `rows` are the float64 advantages before
 * whitening with the float32 bounds on slime's own raw advantages, `stored` the dump's.
 * Returns null when no line can be fitted (fewer than 3 usable tokens, or every raw value equal).
 */
export function fitWhitening(
  rows: RawRows,
  stored: ArrayLike<number>[],
  stats: WhitenBoundStats,
  /** `stored[i].length` for every i, where the caller knows them without reading the rows (a streamed dump). */
  lengths: number[] = stored.map((row) => row.length),
): WhitenFit | null {
  return fitWhiteningLine(rows, stored, stats, lengths)?.finish() ?? null;
}

/**
 * The whitening's fit with its last pass still to make: each row's tokens off the final line, which
 * a caller passing over the samples anyway (the windowed replay's first pass, which needs nothing of
 * the fit) makes row by row with `markRow`, in order, while the row's fields are read; `finish` marks
 * the rows left and gives the fit. The same marks, in the same order, as one pass of its own.
 */
export interface PendingWhitenFit {
  /** Marks row i when it is the next unmarked one (rows are marked in order; any other i is left to finish). */
  markRow(i: number): void;
  finish(): WhitenFit;
}

/** fitWhitening up to its last pass (PendingWhitenFit); null when no line can be fitted. */
export function fitWhiteningLine(
  rows: RawRows,
  stored: ArrayLike<number>[],
  stats: WhitenBoundStats,
  lengths: number[] = stored.map((row) => row.length),
  /** strayFromExact's marks on these rows under these statistics, where a pass over them made them (StrayMarker). */
  made?: StrayMarks,
): PendingWhitenFit | null {
  // Tokens that stray from the exact map by more than its float32 bound allows are left out of the
  // fit (when enough remain), then the tokens off the fitted line once more: an edited token, or an
  // edited sample, must not drag the shared map and put every other token off it. When most tokens
  // stray (the whole map is off: a cancelled variance, a shifted mean) the fit takes them all.
  const stray = made ?? strayFromExact(rows, stored, stats, lengths);
  let firstSkip = stray.skip;
  let line = fitLine(rows, stored, firstSkip, stray.skipSums);
  if (!line) {
    firstSkip = none(lengths);
    line = fitLine(rows, stored, firstSkip, stray.allSums);
  }
  if (!line) return null;
  const first: Line = line;
  const offFirst = none(lengths);
  // The refit's first sums (sumsRow's) in the same pass as the marks they skip: the same additions in the same order.
  const sums = new Float64Array(3);
  for (let i = 0; i < rows.count; i++) {
    const { raw: xs, errors } = rows.row(i);
    offFirst[i] = offFirstRow(offFirst[i], xs, stored[i], errors, first);
    sumsRow(sums, xs, stored[i], offFirst[i]);
  }
  // Where the first line puts off it exactly the tokens it was fitted without (a clean dump: none), the
  // refit would add the same numbers in the same order and give the same line: its two passes over the
  // batch (a streamed dump's fields read from the file twice more) are skipped.
  line = sameMarks(firstSkip, offFirst) ? first : (fitLine(rows, stored, offFirst, sums) ?? first);
  const offLine = none(lengths);
  const fit: Line = line;
  // The raw values' spread about the exact mean (scalarProblem's), in the same pass: a maximum, in any order.
  const last: OffLinePass = { spread: 0, worst: null };
  let next = 0;
  const markRow = (i: number) => {
    if (i !== next || i >= rows.count) return;
    const { raw: xs, errors } = rows.row(i);
    offLine[i] = offLineRow(offLine[i], i, xs, stored[i], errors, fit, stats.mean, last);
    next++;
  };
  let done: WhitenFit | null = null;
  const finish = (): WhitenFit => {
    if (done) return done;
    while (next < rows.count) markRow(next);
    const spread = last.spread;
    done = {
      used: fit.n,
      slope: fit.slope,
      slopeError: fit.slopeError,
      centre: fit.centre,
      centreError: fit.centreError,
      offLine,
      worstOffLine: last.worst,
      scalarProblem: scalarProblem(fit.slope, fit.slopeError, fit.centre, fit.centreError, fit.xBar, stats, spread),
    };
    return done;
  };
  return { markRow, finish };
}

/** strayFromExact's marks and sums (fitWhiteningLine takes them made, where a pass over the same rows made them). */
export interface StrayMarks {
  skip: Uint8Array[];
  skipSums?: Float64Array;
  allSums?: Float64Array;
}

/**
 * Tokens off the exact map `rs·(x − μ)` by more than its bound; none when fewer than a tenth would
 * remain. The first fit's sums (sumsRow's) come from the same pass, over the tokens kept and over
 * every usable token (the fit then takes one or the other): the same additions in the same order.
 */
function strayFromExact(
  rows: RawRows,
  stored: ArrayLike<number>[],
  stats: WhitenBoundStats,
  lengths: number[],
): StrayMarks {
  const marker = new StrayMarker(stats, lengths);
  if (!marker.active) return marker.result();
  for (let i = 0; i < rows.count; i++) {
    const { raw: xs, errors } = rows.row(i);
    marker.add(i, xs, stored[i], errors);
  }
  return marker.result();
}

/**
 * strayFromExact a row at a time, rows 0, 1, … each once: the settings read makes the marks in its own
 * pass over the same rows (readNormalizationOfRows' second), where the replay's fit would pass again.
 */
export class StrayMarker {
  private readonly skip: Uint8Array[];
  private readonly keptSums = new Float64Array(3);
  private readonly allSums = new Float64Array(3);
  /** Whether rows are marked at all: with an infinite rs nothing is (the result marks nothing). */
  readonly active: boolean;

  constructor(
    private readonly stats: WhitenBoundStats,
    private readonly lengths: number[],
  ) {
    this.skip = none(lengths);
    this.active = Number.isFinite(stats.rs);
  }

  add(i: number, xs: Float64Array, ys: ArrayLike<number>, errors: Float64Array): void {
    if (this.active) this.skip[i] = strayRow(this.skip[i], xs, ys, errors, this.stats, this.keptSums, this.allSums);
  }

  result(): StrayMarks {
    const { skip, keptSums, allSums } = this;
    if (!this.active) return { skip };
    const used = allSums[0];
    const kept = keptSums[0];
    return kept >= 3 && kept * 10 >= used
      ? { skip, skipSums: keptSums, allSums }
      : { skip: none(this.lengths), skipSums: allSums, allSums };
  }
}

/** Marks a row's tokens off the exact map; kept += [count, Σx, Σy] over the others, all over every usable token. */
function strayRow(
  off: Uint8Array,
  xs: Float64Array,
  ys: ArrayLike<number>,
  errors: Float64Array,
  stats: WhitenBoundStats,
  kept: Float64Array,
  all: Float64Array,
): Uint8Array {
  const u = UNIT_ROUNDOFF.float32;
  const { rs, mean, dMean, rho } = stats;
  const slopeBound = rs * Math.min(rho, ACCURACY_THRESHOLD);
  let row = off;
  let n = kept[0];
  let sx = kept[1];
  let sy = kept[2];
  let nAll = all[0];
  let sxAll = all[1];
  let syAll = all[2];
  for (let t = 0; t < xs.length; t++) {
    const x = xs[t];
    const y = ys[t];
    if (!usable(x, y)) continue;
    nAll += 1;
    sxAll += x;
    syAll += y;
    const tolerance =
      rs * (1 + ACCURACY_THRESHOLD) * (errors[t] + dMean) + slopeBound * Math.abs(x - mean) + 2.01 * u * Math.abs(y);
    if (Math.abs(y - rs * (x - mean)) > tolerance) row = marked(row, t);
    else {
      n += 1;
      sx += x;
      sy += y;
    }
  }
  kept[0] = n;
  kept[1] = sx;
  kept[2] = sy;
  all[0] = nAll;
  all[1] = sxAll;
  all[2] = syAll;
  return row;
}

/**
 * Every token of every row unmarked. A row nothing marks is a view of one shared zero row, read and
 * never written (marked gives a row of its own at its first mark): a fresh row of bytes per token,
 * three times a fit, was 13 MB at 4.4 M tokens and 92 MB at 30 M, alive at once.
 */
function none(lengths: number[]): Uint8Array[] {
  let longest = 0;
  for (const length of lengths) longest = Math.max(longest, length);
  const zero = new Uint8Array(longest);
  const rows = lengths.map((length) => zero.subarray(0, length));
  unmarked.add(zero.buffer);
  return rows;
}

/** The shared zero rows' buffers (none): a row over one of them is copied before its first mark. */
const unmarked = new WeakSet<ArrayBufferLike>();

/** Whether two sets of rows (none's, marked's) mark the same tokens. */
function sameMarks(a: Uint8Array[], b: Uint8Array[]): boolean {
  for (let i = 0; i < a.length; i++) {
    // A view of a shared zero row marks nothing; a row of its own has a mark.
    const zeroA = unmarked.has(a[i].buffer);
    const zeroB = unmarked.has(b[i].buffer);
    if (zeroA && zeroB) continue;
    if (zeroA !== zeroB) return false;
    for (let t = 0; t < a[i].length; t++) if (a[i][t] !== b[i][t]) return false;
  }
  return true;
}

/** `row` with token t marked: the row itself, or its own copy where it was a view of a shared zero row. */
function marked(row: Uint8Array, t: number): Uint8Array {
  const own = unmarked.has(row.buffer) ? new Uint8Array(row.length) : row;
  own[t] = 1;
  return own;
}

interface Line {
  n: number;
  xBar: number;
  /** The stored values' mean over the fitted tokens. */
  yBar: number;
  slope: number;
  slopeError: number;
  centre: number;
  centreError: number;
  /** |slope|·(1 + 1e-3): the slope standing in for slime's rs, padded for the fit's error. */
  rate: number;
}

/** The fitted map at x: a plain function of the line's fields, so the 4 M-token loops call no closure. */
function lineAt(line: Line, x: number): number {
  return line.yBar + line.slope * (x - line.xBar);
}

/**
 * A token's own rounding around the map slime used: its raw value's float32 error (`rawError`)
 * through the slope, and the subtraction's and the product's roundings (2u of the output, a little
 * more for the product of the two).
 */
function ownRounding(line: Line, y: number, rawError: number): number {
  return line.rate * rawError + 2.01 * UNIT_ROUNDOFF.float32 * Math.abs(y) + SUBNORMAL_STEP.float32;
}

/** How far a token may lie off the line: its own rounding and the fit's error there. */
function lineTolerance(line: Line, x: number, y: number, rawError: number): number {
  return ownRounding(line, y, rawError) + line.centreError + Math.abs(x - line.xBar) * line.slopeError;
}

/**
 * Least squares of stored against raw over the usable tokens not marked in `skip`; `sums`, where
 * given, are the first pass's (sumsRow over every row) done already.
 */
function fitLine(rows: RawRows, stored: ArrayLike<number>[], skip: Uint8Array[], sums?: Float64Array): Line | null {
  // Each pass is a function of one row, its running sums carried in `acc` from row to row (the
  // same additions in the same order): a loop written inline was compiled on the fly (OSR) and
  // thrown away at the next loop, three times per fit, 0.8 s of ppo512's replay.
  const acc = new Float64Array(3);
  if (sums) acc.set(sums);
  else for (let i = 0; i < rows.count; i++) sumsRow(acc, rows.row(i).raw, stored[i], skip[i]);
  const n = acc[0];
  if (n < 3) return null;
  const xBar = acc[1] / n;
  const yBar = acc[2] / n;
  acc.fill(0);
  for (let i = 0; i < rows.count; i++) momentsRow(acc, rows.row(i).raw, stored[i], skip[i], xBar, yBar);
  const sxx = acc[0];
  const sxy = acc[1];
  if (!(sxx > 0)) return null;
  const slope = sxy / sxx;
  // The slope stands in for slime's rs, padded by 1e-3 for the fit's error (ownRounding).
  const rate = Math.abs(slope) * (1 + ACCURACY_THRESHOLD);
  const line: Line = { n, xBar, yBar, slope, slopeError: 0, centre: yBar, centreError: 0, rate };
  // The fit's own error at token t from every token's: the hat matrix row, bounded by
  // Σ|h_tj|·b_j ≤ A + |x_t − x̄|·B with A = Σb_j/N, B = Σ|x_j − x̄|·b_j/Sxx.
  acc.fill(0);
  for (let i = 0; i < rows.count; i++) {
    const { raw, errors } = rows.row(i);
    errorsRow(acc, raw, stored[i], skip[i], errors, line);
  }
  line.centreError = acc[0] / n;
  line.slopeError = acc[1] / sxx;
  return line;
}

/** The last pass's running results, carried from row to row (offLineRow). */
interface OffLinePass {
  spread: number;
  worst: WhitenFit["worstOffLine"];
}

/**
 * Sample i's tokens off the fitted line by more than their tolerance marked, the largest such gap
 * and the raw values' largest |x − μ| carried on in `pass`; the row as marked (marked). A function of
 * one row: the loop inline was compiled on the fly (OSR), its running maximum a fresh heap number
 * per token (72 MB at 4.4 M tokens).
 */
function offLineRow(
  off: Uint8Array,
  i: number,
  xs: Float64Array,
  ys: ArrayLike<number>,
  errors: Float64Array,
  fit: Line,
  exactMean: number,
  pass: OffLinePass,
): Uint8Array {
  let row = off;
  let spread = +pass.spread;
  let worst = pass.worst;
  for (let t = 0; t < xs.length; t++) {
    const x = xs[t];
    const y = ys[t];
    if (Number.isFinite(x)) spread = Math.max(spread, Math.abs(x - exactMean));
    if (!usable(x, y)) continue;
    const gap = Math.abs(y - lineAt(fit, x));
    const tolerance = lineTolerance(fit, x, y, errors[t]);
    if (gap <= tolerance) continue;
    row = marked(row, t);
    if (!worst || gap > worst.gap) worst = { sample: i, token: t, gap, tolerance };
  }
  pass.spread = spread;
  pass.worst = worst;
  return row;
}

/** Marks a row's usable tokens off the first fitted line by more than their tolerance; the row as marked (marked). */
function offFirstRow(
  off: Uint8Array,
  xs: Float64Array,
  ys: ArrayLike<number>,
  errors: Float64Array,
  first: Line,
): Uint8Array {
  let row = off;
  for (let t = 0; t < xs.length; t++) {
    const x = xs[t];
    const y = ys[t];
    if (usable(x, y) && Math.abs(y - lineAt(first, x)) > lineTolerance(first, x, y, errors[t])) row = marked(row, t);
  }
  return row;
}

/** acc += [count, Σx, Σy] over a row's usable tokens not skipped. */
function sumsRow(acc: Float64Array, xs: Float64Array, ys: ArrayLike<number>, skipped: Uint8Array): void {
  let n = acc[0];
  let sx = acc[1];
  let sy = acc[2];
  for (let t = 0; t < xs.length; t++) {
    const x = xs[t];
    const y = ys[t];
    if (!usable(x, y) || skipped[t]) continue;
    n += 1;
    sx += x;
    sy += y;
  }
  acc[0] = n;
  acc[1] = sx;
  acc[2] = sy;
}

/** acc += [Σ(x − x̄)², Σ(x − x̄)(y − ȳ)] over a row's usable tokens not skipped. */
function momentsRow(
  acc: Float64Array,
  xs: Float64Array,
  ys: ArrayLike<number>,
  skipped: Uint8Array,
  xBar: number,
  yBar: number,
): void {
  let sxx = acc[0];
  let sxy = acc[1];
  for (let t = 0; t < xs.length; t++) {
    const x = xs[t];
    const y = ys[t];
    if (!usable(x, y) || skipped[t]) continue;
    sxx += (x - xBar) * (x - xBar);
    sxy += (x - xBar) * (y - yBar);
  }
  acc[0] = sxx;
  acc[1] = sxy;
}

/** acc += [Σb, Σ|x − x̄|·b] with b each token's own rounding (ownRounding). */
function errorsRow(
  acc: Float64Array,
  xs: Float64Array,
  ys: ArrayLike<number>,
  skipped: Uint8Array,
  errors: Float64Array,
  line: Line,
): void {
  let sumOwn = acc[0];
  let sumLever = acc[1];
  const xBar = line.xBar;
  for (let t = 0; t < xs.length; t++) {
    const x = xs[t];
    const y = ys[t];
    if (!usable(x, y) || skipped[t]) continue;
    const b = ownRounding(line, y, errors[t]);
    sumOwn += b;
    sumLever += Math.abs(x - xBar) * b;
  }
  acc[0] = sumOwn;
  acc[1] = sumLever;
}

/**
 * The fitted scalars against the exact ones: the slope against rs (relative bound ρ, plus the fit's
 * own error), the centre against rs·(x̄ − μ). Where the float32 bound is infinite or wider than the
 * accuracy threshold, they are held to the threshold instead (relative for the slope, of the
 * whitened scale for the centre).
 */
function scalarProblem(
  slope: number,
  slopeError: number,
  centre: number,
  centreError: number,
  xBar: number,
  stats: WhitenBoundStats,
  /** The largest |x − μ| over the finite raw values. */
  spread: number,
): string | null {
  const { rs, mean, dMean, rho } = stats;
  if (!Number.isFinite(rs)) return null;
  const scale = spread * rs;
  const slopeBound = Math.min(rs * rho, rs * ACCURACY_THRESHOLD) + slopeError;
  const exactCentre = rs * (xBar - mean);
  const centreBound =
    Math.min(rs * dMean * (1 + rho) + Math.abs(xBar - mean) * rs * rho, ACCURACY_THRESHOLD * scale) + centreError;
  const problems: string[] = [];
  if (!(Math.abs(slope - rs) <= slopeBound)) {
    problems.push(
      `scales by ${fmt(slope)} where the batch's exact 1/std is ${fmt(rs)} (${fmt(Math.abs(slope / rs - 1))} off, allowed ${fmt(slopeBound / rs)})`,
    );
  }
  if (!(Math.abs(centre - exactCentre) <= centreBound)) {
    problems.push(
      `is centred ${fmt(centre - exactCentre)} away from the batch's exact mean (allowed ${fmt(centreBound)})`,
    );
  }
  return problems.length > 0 ? `the stored whitening ${problems.join(" and ")}` : null;
}

/** The per-token loops are written out (no visitor callback): each runs once over 4 M tokens. */
function usable(x: number, y: number): boolean {
  return Number.isFinite(x) && Number.isFinite(y);
}

function fmt(x: number): string {
  return Number.isFinite(x) ? x.toPrecision(3) : String(x);
}
