import { describeConventionNonFinite } from "../../io/nonFinite";
import { type Difference, describeDifferences } from "./conventionDifferences";
import type { ConventionReference, ConventionRequest, LibraryRun } from "./conventionRun";
import { checkFloat32, type Float32Check } from "./float32Check";

/** What the panel says about a run: the float32 verdict of the library shown, and the rules that differ. */
export interface ConventionSummary {
  check: Float32Check | null;
  sentences: Difference[];
  /** The row the sentences point at. */
  sentencesRow: number;
}

/** The sentences naming each rule that differs between the library shown and each compared one. */
export function sentencesFor(
  request: ConventionRequest,
  reference: ConventionReference,
  focusRow: number,
): Difference[] {
  const runs = reference.runs.flatMap((run) =>
    run.ok ? [{ library: run.library, tables: run.tables, rewardIndex: run.rewardIndex }] : [],
  );
  if (runs.length < 2 || !reference.runs[0]?.ok) return [];
  return describeDifferences({
    estimator: request.estimator,
    rows: reference.rows,
    cols: reference.cols,
    lengths: reference.lengths,
    masks: request.batch.lossMasks,
    kl: request.batch.kl,
    outcomes: request.batch.rewards,
    klCoef: request.params.klCoef,
    normalize: request.params.normalize,
    rewardClip: request.params.rewardClipRange ?? null,
    focusRow,
    runs,
  });
}

/** The float32 check (against each element's bound) and the sentences, from the reference and the float32 run. */
export function summarize(
  request: ConventionRequest,
  reference: ConventionReference,
  float32: LibraryRun<Float32Array>,
  focusRow: number,
): ConventionSummary {
  const shown = reference.runs[0];
  const check =
    shown?.ok && float32.ok && reference.bound
      ? checkFloat32(
          shown.tables,
          float32.tables,
          reference.bound,
          reference.lengths,
          reference.cols,
          describeConventionNonFinite(request.batch) !== null,
        )
      : null;
  return { check, sentences: sentencesFor(request, reference, focusRow), sentencesRow: focusRow };
}
