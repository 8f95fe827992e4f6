import type { SideNames } from "../../compute/playground/cellErrors";
import type { GridField, GridInfo } from "../../compute/run/runGrid";

type Field = Pick<GridInfo, "field" | "referenceIs">;

/** What the heatmap compares for each field, in its legend's words. */
export function fieldSides(grid: Field): SideNames {
  if (grid.field !== "kl")
    return {
      reference: "the float64 reference",
      actual: "the dump",
      both: "the dump and the reference",
      symbols: { reference: "reference", actual: "dump" },
    };
  if (grid.referenceIs === "replayed")
    return {
      reference: "the KL recomputed in float64",
      actual: "the dump's KL",
      both: "the dump's KL and the recomputed one",
      symbols: { reference: "recomputed kl", actual: "stored kl" },
    };
  return {
    reference: "zero",
    actual: "the dump's KL",
    symbols: { reference: "0", actual: "stored kl" },
    gap: "difference",
  };
}

/** The heatmap's heading: which field, measured how, and by what. */
export function fieldHeading(grid: Field): string {
  if (grid.field !== "kl") return `|dump − float64 reference| of the ${grid.field}, sample × token`;
  return grid.referenceIs === "replayed"
    ? "|stored kl − kl recomputed in float64|, sample × token"
    : "the stored kl itself (|kl|), sample × token";
}

/** One line under the heading: where the reference comes from. */
export function fieldCaption(grid: Field): string {
  if (grid.field !== "kl")
    return "Reference: Scanlab's float64 replay of slime's compute_advantages_and_returns (serial loops, in this page's worker); dump: slime's stored float32.";
  return grid.referenceIs === "replayed"
    ? "Reference: compute_approx_kl of the dump's log-probs, recomputed by Scanlab in float64 (the replay's KL)."
    : "The replay did not recompute the KL (kl_coef 0, or the dump has no log-probs): the colour is the stored KL itself, not a gap.";
}

export const FIELD_NAMES: Record<GridField, string> = {
  advantages: "advantages",
  returns: "returns",
  kl: "KL",
};
