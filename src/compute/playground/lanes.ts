import type { Lane } from "../../io/playgroundProblem";
import type { Estimator } from "../../io/playgroundState";
import { FLOAT32_MAX } from "../../io/playgroundState";

/** The lanes the editor shows for an estimator, top to bottom; the mask lane is always last. */
export function lanesFor(estimator: Estimator): Lane[] {
  if (estimator === "gae") return ["rewards", "values", "lossMask"];
  if (estimator === "reinforce_pp") return ["kl", "lossMask"];
  return ["rewards", "lossMask"];
}

export { LANE_LABELS } from "./importDestination";

/** The mask matters to REINFORCE++ only; slime's discounted and GAE scans take none. */
export function maskIsUsed(estimator: Estimator): boolean {
  return estimator === "reinforce_pp";
}

/** The editor's hint, shown beside its toolbar until the user acts: what the pointer does in this mode. */
export function drawHint(estimator: Estimator, mode: "draw" | "mask"): string {
  if (mode === "mask") return "Drag to paint holes in the loss mask";
  return `Drag to draw ${lanesFor(estimator)[0] === "kl" ? "the KL" : "rewards"} · click a bar to type a value`;
}

const NON_FINITE = /^([+-]?)(nan|inf|infinity)$/i;

/**
 * A typed lane value: a float32 number (stored rounded to float32, as the scan reads it), or NaN,
 * inf, -inf as numpy prints them: the page reports them and runs them to show how they spread.
 */
export function parseLaneValue(
  text: string,
  where: string,
): { ok: true; value: number } | { ok: false; reason: string } {
  const trimmed = text.trim();
  const special = NON_FINITE.exec(trimmed);
  if (special) {
    if (special[2].toLowerCase() === "nan") return { ok: true, value: Number.NaN };
    return { ok: true, value: special[1] === "-" ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY };
  }
  const value = Number(trimmed);
  if (trimmed === "" || !Number.isFinite(value)) {
    return { ok: false, reason: `${where}: "${trimmed}" is not a number (NaN, inf and -inf are accepted)` };
  }
  if (Math.abs(value) > FLOAT32_MAX) {
    return { ok: false, reason: `${where}: ${trimmed} is beyond float32's range (±${FLOAT32_MAX.toPrecision(8)})` };
  }
  return { ok: true, value: Math.fround(value) };
}
