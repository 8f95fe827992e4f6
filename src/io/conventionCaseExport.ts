import { type ConventionResult, type FloatArray, runConvention, ScanInputError } from "../core";
import { buildCaseFile } from "./caseBuilder";
import type { CaseExport } from "./caseExport";
import type { ConventionCase } from "./caseSchema";
import { conventionOf, stateToConvention } from "./conventionProblem";
import { firstNonFinite, nonFiniteOutputMessage } from "./finiteJson";
import { describeThrown, failure, IoError, type IoResult, success } from "./ioError";
import { describeConventionNonFinite } from "./nonFinite";
import { materializeRows } from "./playgroundProblem";
import type { ConventionLibrary, PlaygroundState } from "./playgroundState";

/**
 * The playground's inputs as a library-convention case (cases/SCHEMA.md, `kind: "convention"`)
 * for one library: `expected` from core's runConvention in float64, `float32` from the same in
 * float32, `reward_index` where the library put the outcome reward, and no `tolerance`, so
 * `npx scanlab check` holds every element to its own error bound. Ragged rows stay ragged (each
 * library pads them itself). `library` defaults to the one shown; the estimator is the state's.
 */
export function exportConventionCase(
  state: PlaygroundState,
  library: ConventionLibrary = conventionOf(state).library,
): IoResult<CaseExport> {
  try {
    const rows = materializeRows(state);
    const f64 = stateToConvention(state, "float64", rows);
    const f32 = stateToConvention(state, "float32", rows);
    if (!f64 || !f32) {
      return failure(new IoError("", "needs REINFORCE++ or GAE: plain discounted returns have no library convention"));
    }
    const { estimator, batch, params } = f64;
    const nonFinite = describeConventionNonFinite(batch);
    if (nonFinite) {
      // JSON has no NaN or ±Inf (they would be written as null) and the golden schema takes finite inputs only.
      return failure(new IoError("", `cannot hold non-finite inputs (${nonFinite})`, "Convention case export"));
    }
    let expected: ConventionResult<FloatArray> | null = null;
    let float32: ConventionResult<FloatArray> | null = null;
    let error: string | undefined;
    try {
      expected = runConvention(library, estimator, batch, params);
      float32 = runConvention(library, estimator, f32.batch, f32.params);
    } catch (thrown) {
      // Inputs the library rejects (a fully masked row in slime) become a case that expects the error.
      if (!(thrown instanceof ScanInputError)) throw thrown;
      error = thrown.referenceText;
    }
    const lengths = rows.map((row) => row.length);
    const maxLength = Math.max(0, ...lengths);
    const name = `playground_${library}_${estimator}_B${rows.length}_T${maxLength}`;
    const c: ConventionCase = {
      name,
      kind: "convention",
      note: caseNote(state, library),
      seed: 0,
      library,
      estimator,
      lengths,
      params: {
        gamma: params.gamma,
        ...(estimator === "gae" ? { lambd: params.lambd } : {}),
        kl_coef: params.klCoef,
        normalize: params.normalize,
        ...(library === "openrlhf" ? { reward_clip_range: clipRange(params.rewardClipRange) } : {}),
      },
      inputs: {
        rewards: list(batch.rewards),
        kl: batch.kl.map(list),
        loss_masks: batch.lossMasks.map((mask) => list(mask) as (0 | 1)[]),
        ...(batch.values ? { values: batch.values.map(list) } : {}),
      },
      ...(expected ? { reward_index: expected.rewardIndex } : {}),
      expected: expected ? outputs(expected) : null,
      float32: float32 ? outputs(float32) : null,
      ...(error ? { expect_error: error } : {}),
    };
    const file = buildCaseFile([c], "exported from the Scanlab playground (library convention)");
    const overflow = firstNonFinite(file);
    if (overflow) return failure(new IoError("", nonFiniteOutputMessage(overflow), "Convention case export"));
    return success({ file, text: `${JSON.stringify(file)}\n`, fileName: `${name}.json` });
  } catch (thrown) {
    return failure(new IoError("", `could not be written (${describeThrown(thrown)})`, "Convention case export"));
  }
}

function clipRange(range: readonly [number, number] | null | undefined): [number, number] | null {
  return range ? [range[0], range[1]] : null;
}

function outputs(result: ConventionResult<FloatArray>) {
  return {
    token_level_rewards: result.tokenLevelRewards.map(list),
    returns: result.returns.map(list),
    advantages: result.advantages.map(list),
  };
}

function caseNote(state: PlaygroundState, library: ConventionLibrary): string {
  const { data } = state;
  const origin =
    data.source === "preset"
      ? `preset ${data.preset}, seed ${data.seed}${data.ragged ? ", ragged" : ""} (Scanlab's generator, not numpy)`
      : "rows drawn or imported in the playground";
  const rebuilt = library === "slime" ? "" : `; ${library}'s rules as Scanlab's core reimplements them`;
  return `Exported from the Scanlab playground: ${origin}; expected and float32 from Scanlab's core${rebuilt}.`;
}

/** Plain numbers for JSON, with −0 written as 0 like the golden files. */
function list(values: ArrayLike<number>): number[] {
  return Array.from(values, (v) => (Object.is(v, -0) ? 0 : v));
}
