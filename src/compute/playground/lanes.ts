import type { Lane } from "../../io/playgroundProblem";
import type { Estimator } from "../../io/playgroundState";

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
