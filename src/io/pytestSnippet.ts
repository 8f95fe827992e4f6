import { outputErrorBounds, ScanInputError } from "../core";
import { materializeRows } from "./playgroundProblem";
import type { PlaygroundRow, PlaygroundState } from "./playgroundState";
import { discountedTest, gaeTest, reinforcePPTest } from "./pytestTests";
import { type LaneWriter, laneWriter, pyString } from "./pythonLanes";
import {
  namedOutputs,
  predictSlimeTolerance,
  raisesPrediction,
  type SlimeSides,
  type SlimeTolerancePrediction,
  slimeProblem,
  slimeSides,
} from "./slimeTolerance";

/**
 * "Copy as pytest": a test file that rebuilds the playground's inputs as float32 tensors and runs
 * slime's own function on them twice over:
 * - slime's own assertion, as its tests/test_discounted_returns.py (THUDM/slime 624b824) makes it:
 *   the chunked scan against slime's float32 serial loop with its tolerances (SLIME_TOLERANCES).
 *   It holds no value Scanlab computed, so it cannot catch a disagreement with Scanlab, and on long
 *   horizons it fails on a correct scan: the float32 loop itself drifts from the truth. Where
 *   Scanlab predicts that (slimeTolerance.ts), the test is marked xfail with the numbers as reason.
 * - Scanlab's assertion: slime's result against Scanlab's float64 serial reference, embedded in
 *   the file, each element held to Scanlab's per-element float32 bound (docs/ERROR_BOUND.md) for
 *   slime's chunked scan. A changed input, a changed parameter or a wrong scan fails it.
 * Where Scanlab's float32 emulation of slime's scan is NaN or ±inf (non-finite inputs poison their
 * chunk, ALGORITHM.md §b.4; float32 overflow), the reference holds that value and slime's must
 * be the same. Ragged discounted and GAE rows are right-padded with zeros to `[B, max length]`, as
 * slime pads a batch. Run it from a slime checkout: `pytest this_file.py`.
 */

/** Up to this many numbers a lane is a readable list; more go as compressed bytes (pythonLanes). */
export const SMALL_DATA = 256;

export interface PytestExport {
  text: string;
  prediction: SlimeTolerancePrediction;
}

export function pytestSnippet(state: PlaygroundState, rows: PlaygroundRow[] = materializeRows(state)): string {
  return pytestExport(state, rows).text;
}

/** The prediction pytestExport puts in the file, without writing the file. */
export function pytestPrediction(
  state: PlaygroundState,
  rows: PlaygroundRow[] = materializeRows(state),
): SlimeTolerancePrediction {
  const sides = sidesOrRefusal(state, rows);
  return sides instanceof ScanInputError
    ? raisesPrediction(state, sides.referenceText)
    : predictSlimeTolerance(state, rows, sides);
}

export function pytestExport(state: PlaygroundState, rows: PlaygroundRow[] = materializeRows(state)): PytestExport {
  const sides = sidesOrRefusal(state, rows);
  const refused = sides instanceof ScanInputError ? sides : null;
  const prediction = refused
    ? raisesPrediction(state, refused.referenceText)
    : predictSlimeTolerance(state, rows, sides as SlimeSides);
  const lanes = laneWriter(SMALL_DATA);
  const cols = rows.reduce((max, row) => Math.max(max, row.length), 0);
  const body =
    state.estimator === "discounted"
      ? discountedTest(state, rows, cols, lanes)
      : state.estimator === "gae"
        ? gaeTest(state, rows, cols, lanes)
        : reinforcePPTest(state, rows, lanes);
  const shape = state.estimator === "reinforce_pp" ? [rows.reduce((n, row) => n + row.length, 0)] : [rows.length, cols];
  const checked = refused ? [] : scanlabLanes(state, rows, sides as SlimeSides, shape, lanes);
  const xfail =
    prediction.verdict === "passes" || prediction.verdict === "raises"
      ? []
      : ["", `SLIME_TOLERANCE_XFAIL = ${pyString(`Scanlab predicted: ${prediction.summary}`)}`];
  const head = [
    `"""Scanlab playground export: ${caseLine(state)} on ${rows.length} row(s), lengths ${lengthsText(rows)}.`,
    "",
    ...(refused
      ? [`Inputs: ${dataSource(state)}. slime's own code refuses them, and the test expects it to.`]
      : [
          `Inputs: ${dataSource(state)}. Two tests run slime's own function on them:`,
          "- slime's own assertion (tests/test_discounted_returns.py): its chunked scan against its float32",
          "  serial loop, with its tolerances;",
          "- Scanlab's: the same result against Scanlab's float64 serial reference (SCANLAB_*), each element",
          "  held to Scanlab's float32 error bound for slime's chunked scan (*_BOUND).",
        ]),
    `Scanlab predicted: ${prediction.summary}`,
    'Run from a slime checkout: pytest this_file.py"""',
    ...(lanes.usesBytes() ? ["import base64"] : []),
    ...(refused ? ["import re"] : []),
    ...(state.estimator === "reinforce_pp" ? ["import sys", "import types"] : []),
    ...(lanes.usesBytes() ? ["import zlib"] : []),
    "",
    ...(lanes.usesBytes() ? ["import numpy as np"] : []),
    "import pytest",
    "import torch",
    "",
    ...body.imports,
    "",
  ];
  const helpers = [
    ...lanes.decoders(),
    "",
    "def _serial_discounted_returns(rewards: torch.Tensor, discount: float) -> torch.Tensor:",
    "    returns = torch.zeros_like(rewards)",
    "    running_return = torch.zeros(rewards.size(0), device=rewards.device, dtype=rewards.dtype)",
    "    for t in reversed(range(rewards.size(1))):",
    "        running_return = rewards[:, t] + discount * running_return",
    "        returns[:, t] = running_return",
    "    return returns",
    "",
    ...SCANLAB_CHECK,
  ];
  const mark =
    prediction.verdict === "passes" ? [] : ["@pytest.mark.xfail(reason=SLIME_TOLERANCE_XFAIL, strict=False)"];
  const tests = refused
    ? [...body.setup, "", ...raisesTest(refused)]
    : [...body.setup, "", ...mark, ...body.slimeTest, "", "", ...body.scanlabTest];
  const text = `${[...head, ...helpers, ...body.data, ...checked, ...xfail, "", ...tests].join("\n")}\n`;
  return { text, prediction };
}

/**
 * slime's result on these inputs, or the error Scanlab's reference raises where slime's own code
 * asserts (a fully masked REINFORCE++ row: `AssertionError: Sequence at index 1 is fully masked.`).
 */
function sidesOrRefusal(state: PlaygroundState, rows: PlaygroundRow[]): SlimeSides | ScanInputError {
  try {
    return slimeSides(state, rows);
  } catch (thrown) {
    const asserted =
      thrown instanceof ScanInputError &&
      thrown.referenceType === "AssertionError" &&
      state.estimator === "reinforce_pp";
    if (asserted) return thrown;
    throw thrown;
  }
}

/** The one test where slime refuses the inputs: it must raise what Scanlab's reference raises. */
function raisesTest(error: ScanInputError): string[] {
  return [
    "def test_reinforce_plus_plus_returns_raises_as_scanlab_does(one_context_parallel_rank):",
    `    with pytest.raises(${error.referenceType}, match=re.escape(${pyString(error.message)})):`,
    "        _slime_returns()",
  ];
}

/** Scanlab's assertion, the same in every file. */
const SCANLAB_CHECK = [
  "",
  "def _assert_within_scanlab_bound(name, actual, reference, bound):",
  '    """Every element of slime\'s result within its Scanlab bound of Scanlab\'s float64 reference.',
  "",
  "    Where Scanlab's float32 emulation of slime's scan is NaN or +-inf, the reference holds that",
  "    value and slime's must be the same.",
  '    """',
  "    actual = actual.detach().to(torch.float64).reshape(reference.shape)",
  "    finite = torch.isfinite(reference)",
  "    error = (actual - reference).abs()",
  "    within = (error <= bound) & torch.isfinite(bound)",
  "    same = (actual == reference) | (actual.isnan() & reference.isnan())",
  "    bad = torch.where(finite, ~within, ~same).reshape(-1)",
  "    if bad.any():",
  "        i = int(bad.nonzero()[0])",
  "        a, r, b = actual.reshape(-1)[i].item(), reference.reshape(-1)[i].item(), bound.reshape(-1)[i].item()",
  "        raise AssertionError(",
  '            f"{name}: {int(bad.sum())} of {bad.numel()} elements off Scanlab\'s reference by more than their float32 bound; "',
  '            f"the first at flat index {i}: slime {a!r}, Scanlab {r!r} (bound {b!r})"',
  "        )",
  "",
];

/** SCANLAB_<OUTPUT> and SCANLAB_<OUTPUT>_BOUND for every output slime's function returns. */
function scanlabLanes(
  state: PlaygroundState,
  rows: PlaygroundRow[],
  sides: SlimeSides,
  shape: number[],
  lanes: LaneWriter,
): string[] {
  const bounds = namedOutputs(
    outputErrorBounds(slimeProblem(state, "float64", rows), { precision: "float32", algorithm: "chunked" }),
  );
  const lines = [""];
  for (const name of Object.keys(sides.chunked)) {
    const chunked = sides.chunked[name];
    const truth = sides.truth[name];
    const reference = Float64Array.from(truth, (t, i) => (Number.isFinite(chunked[i]) ? t : chunked[i]));
    const bound = Float64Array.from(bounds[name], (b, i) => (Number.isFinite(chunked[i]) ? b : 0));
    const [ref, limit] = lanes.checked(reference, bound, shape);
    lines.push(`SCANLAB_${name.toUpperCase()} = ${ref}`, `SCANLAB_${name.toUpperCase()}_BOUND = ${limit}`);
  }
  return lines;
}

function caseLine(state: PlaygroundState): string {
  if (state.estimator === "discounted") return `discounted returns, γ ${state.gamma}, chunk size ${state.chunkSize}`;
  if (state.estimator === "gae") return `GAE, γ ${state.gamma}, λ ${state.lambd}, chunk size ${state.chunkSize}`;
  return `REINFORCE++, γ ${state.gamma}, kl_coef ${state.klCoef}`;
}

/** The row lengths, runs of equal ones shortened: `3000 (× 8)`. */
function lengthsText(rows: PlaygroundRow[]): string {
  const runs: string[] = [];
  for (let i = 0; i < rows.length; ) {
    let j = i;
    while (j < rows.length && rows[j].length === rows[i].length) j++;
    runs.push(j - i > 1 ? `${rows[i].length} (× ${j - i})` : String(rows[i].length));
    i = j;
  }
  return runs.join(", ");
}

function dataSource(state: PlaygroundState): string {
  const { data } = state;
  return data.source === "preset"
    ? `Scanlab preset ${data.preset}, seed ${data.seed}`
    : "drawn or imported in the Scanlab playground";
}
