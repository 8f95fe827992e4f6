import { DEFAULT_CHUNK_SIZE, type ScanOutputs, type ScanProblem, solve } from "../core";
import { countText } from "./countText";
import { materializeRows, stateToProblem } from "./playgroundProblem";
import type { Estimator, PlaygroundRow, PlaygroundState } from "./playgroundState";

/**
 * What slime's own assertion (its chunked scan against its float32 serial loop, with the
 * tolerances of its tests) will say on the playground's inputs, predicted before a pytest export.
 *
 * slime's tests hold the chunked scan to the float32 serial loop, not to the truth. Both are off
 * the float64 truth by an error that grows with T and the horizon 1/(1 − γ) (ALGORITHM.md §7.1):
 * at γ = 0.99999 over 5000 tokens the float32 loop itself is off by more than atol + rtol·|x|, so
 * the assertion fails although slime's chunked scan is well inside Scanlab's bound. The prediction
 * replays both sides with core's float32 emulations (the serial loop is elementwise and replays
 * exactly; the chunked scan is bit-exact on netlib BLAS with torch's power tables, within a few
 * ulps elsewhere) and compares them as `torch.testing.assert_close` does.
 */
export const SLIME_TOLERANCES: Record<Estimator, { atol: number; rtol: number }> = {
  // tests/test_discounted_returns.py at THUDM/slime 624b824: its float32 case.
  discounted: { atol: 1e-4, rtol: 1e-5 },
  gae: { atol: 1e-5, rtol: 1e-5 },
  reinforce_pp: { atol: 1e-5, rtol: 1e-5 },
};

/**
 * Above this share of its tolerance an element is too close to call: another BLAS (MKL, cuBLAS)
 * sums a chunk in another order and moves slime's chunked result by a few ulps, about 2% of the
 * tolerance at |G| ≈ 30. The snippet marks slime's assertion xfail (non-strict) there too.
 */
export const NEAR_FRACTION = 0.9;

/** slime's REINFORCE++ always scans in chunks of the default size, whatever the playground's. */
export const RPP_CHUNK_SIZE = DEFAULT_CHUNK_SIZE;

export interface OutputPrediction {
  /** The output as slime's function returns it: `returns`, `advantages`. */
  name: string;
  elements: number;
  /** Elements where slime's chunked scan is not close to its serial loop (NaN counts as not close). */
  over: number;
  /** Largest |chunked − serial| / (atol + rtol·|serial|) over the finite elements. */
  worstFraction: number;
  /** Elements where the float32 serial loop itself is off the float64 truth by more than atol + rtol·|truth|. */
  serialOver: number;
  /** Largest |serial32 − truth| and |chunked32 − truth| over the elements where both are finite. */
  serialError: number;
  chunkedError: number;
  /** Elements of the chunked float32 result that are NaN or ±Inf. */
  nonFinite: number;
}

/** `raises`: slime's own code refuses the inputs (a fully masked REINFORCE++ row), as Scanlab's reference does. */
export type SlimeVerdict = "passes" | "near" | "fails" | "raises";

export interface SlimeTolerancePrediction {
  estimator: Estimator;
  atol: number;
  rtol: number;
  outputs: OutputPrediction[];
  elements: number;
  over: number;
  worstFraction: number;
  nonFinite: number;
  verdict: SlimeVerdict;
  /** One sentence: what slime's assertion will do here, with the numbers (the xfail reason when not "passes"). */
  summary: string;
}

/** The chunk size slime's function uses for this state's estimator. */
export function slimeChunkSize(state: PlaygroundState): number {
  return state.estimator === "reinforce_pp" ? RPP_CHUNK_SIZE : state.chunkSize;
}

/** The state as core's problem with slime's chunk size (REINFORCE++: always 128). */
export function slimeProblem(state: PlaygroundState, precision: "float32" | "float64", rows: PlaygroundRow[]) {
  return { ...stateToProblem(state, precision, rows), chunkSize: slimeChunkSize(state) } as ScanProblem;
}

/** The three sides, flat per output: the float64 truth, slime's float32 serial loop and its chunked scan. */
export interface SlimeSides {
  truth: Record<string, ArrayLike<number>>;
  serial: Record<string, ArrayLike<number>>;
  chunked: Record<string, ArrayLike<number>>;
}

/** Runs the three sides with core (the float32 ones emulate slime's arithmetic). */
export function slimeSides(state: PlaygroundState, rows: PlaygroundRow[] = materializeRows(state)): SlimeSides {
  const p32 = slimeProblem(state, "float32", rows);
  return {
    truth: namedOutputs(solve(slimeProblem(state, "float64", rows), "serial").outputs),
    serial: namedOutputs(solve(p32, "serial").outputs),
    chunked: namedOutputs(solve(p32, "chunked").outputs),
  };
}

export function predictSlimeTolerance(
  state: PlaygroundState,
  rows: PlaygroundRow[] = materializeRows(state),
  sides: SlimeSides = slimeSides(state, rows),
): SlimeTolerancePrediction {
  const { atol, rtol } = SLIME_TOLERANCES[state.estimator];
  const { truth, serial, chunked } = sides;
  const outputs = Object.keys(chunked).map((name) =>
    compareOutput(name, chunked[name], serial[name], truth[name], atol, rtol),
  );
  const elements = sum(outputs.map((o) => o.elements));
  const over = sum(outputs.map((o) => o.over));
  const nonFinite = sum(outputs.map((o) => o.nonFinite));
  const worstFraction = Math.max(0, ...outputs.map((o) => o.worstFraction));
  const verdict: SlimeVerdict = over > 0 ? "fails" : worstFraction >= NEAR_FRACTION ? "near" : "passes";
  const prediction = { estimator: state.estimator, atol, rtol, outputs, elements, over, worstFraction, nonFinite };
  return { ...prediction, verdict, summary: summarize({ ...prediction, verdict }) };
}

/** The prediction where slime raises (`AssertionError: Sequence at index 1 is fully masked.`): nothing to compare. */
export function raisesPrediction(state: PlaygroundState, errorText: string): SlimeTolerancePrediction {
  const { atol, rtol } = SLIME_TOLERANCES[state.estimator];
  const summary = `slime raises ${errorText} on these inputs, as Scanlab's reference does: the snippet expects that error.`;
  return {
    estimator: state.estimator,
    atol,
    rtol,
    outputs: [],
    elements: 0,
    over: 0,
    worstFraction: 0,
    nonFinite: 0,
    verdict: "raises",
    summary,
  };
}

/**
 * The outputs slime's function returns, flat (REINFORCE++: the sequences one after another, as
 * `torch.cat` of its list); REINFORCE++ token rewards are slime's internals, not returned.
 */
export function namedOutputs(outputs: ScanOutputs): Record<string, ArrayLike<number>> {
  if (outputs.kind === "discounted") return { returns: outputs.returns };
  if (outputs.kind === "gae") return { advantages: outputs.advantages, returns: outputs.returns };
  return { returns: concat(outputs.returns) };
}

function concat(rows: ArrayLike<number>[]): Float64Array {
  const out = new Float64Array(sum(rows.map((r) => r.length)));
  let at = 0;
  for (const row of rows) {
    out.set(row, at);
    at += row.length;
  }
  return out;
}

/**
 * torch.isclose on float32 tensors, as assert_close calls it: `|a − b| ≤ atol + |rtol·b|` with
 * every operation rounded to float32 (the Python floats atol and rtol too); equal values (±inf)
 * are close, NaN never is (assert_close's default equal_nan=False).
 */
export function isCloseFloat32(actual: number, expected: number, atol: number, rtol: number): boolean {
  if (actual === expected) return true;
  const f = Math.fround;
  const actualError = Math.abs(f(actual - expected));
  const allowed = f(f(atol) + Math.abs(f(f(rtol) * expected)));
  return Number.isFinite(actualError) && actualError <= allowed;
}

function compareOutput(
  name: string,
  chunked: ArrayLike<number>,
  serial: ArrayLike<number>,
  truth: ArrayLike<number>,
  atol: number,
  rtol: number,
): OutputPrediction {
  let over = 0;
  let worstFraction = 0;
  let serialOver = 0;
  let serialError = 0;
  let chunkedError = 0;
  let nonFinite = 0;
  for (let i = 0; i < chunked.length; i++) {
    const c = chunked[i];
    const s = serial[i];
    const t = truth[i];
    if (!Number.isFinite(c)) nonFinite++;
    if (!isCloseFloat32(c, s, atol, rtol)) over++;
    const fraction = Math.abs(c - s) / (atol + rtol * Math.abs(s));
    if (Number.isFinite(fraction)) worstFraction = Math.max(worstFraction, fraction);
    if (!Number.isFinite(t)) continue;
    if (Number.isFinite(s)) serialError = Math.max(serialError, Math.abs(s - t));
    if (Number.isFinite(c)) chunkedError = Math.max(chunkedError, Math.abs(c - t));
    if (!(Math.abs(s - t) <= atol + rtol * Math.abs(t))) serialOver++;
  }
  return { name, elements: chunked.length, over, worstFraction, serialOver, serialError, chunkedError, nonFinite };
}

function summarize(p: Omit<SlimeTolerancePrediction, "summary">): string {
  const tolerance = `slime's own tolerance (atol ${p.atol.toExponential()}, rtol ${p.rtol.toExponential()})`;
  const serialError = Math.max(...p.outputs.map((o) => o.serialError));
  const chunkedError = Math.max(...p.outputs.map((o) => o.chunkedError));
  const serialOver = sum(p.outputs.map((o) => o.serialOver));
  const errors = `float32 loop off the float64 truth by ${short(serialError)}, slime's chunked by ${short(chunkedError)}`;
  if (p.verdict === "passes") {
    return `${tolerance} holds here: the worst element uses ${percent(p.worstFraction)} of it (${errors}).`;
  }
  if (p.verdict === "near") {
    return `${tolerance} holds here, but the worst element uses ${percent(p.worstFraction)} of it: another BLAS may tip it (${errors}).`;
  }
  const why =
    p.nonFinite > 0
      ? `; ${countText(p.nonFinite)} elements of slime's chunked result are NaN or ±inf (a non-finite value poisons its whole chunk, the serial loop only the tokens before it)`
      : serialOver > 0
        ? `; the float32 loop itself is further than atol + rtol·|x| from the truth on ${countText(serialOver)} elements`
        : "";
  return `${tolerance} fails on ${countText(p.over)} of ${countText(p.elements)} elements here: ${errors}${why}.`;
}

function short(x: number): string {
  return x === 0 ? "0" : x.toExponential(1);
}

function percent(x: number): string {
  return `${(x * 100).toFixed(x < 0.1 ? 1 : 0)}%`;
}

function sum(values: number[]): number {
  return values.reduce((a, b) => a + b, 0);
}
