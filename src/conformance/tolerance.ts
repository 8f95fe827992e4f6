import { scaleOf, uniformTolerance } from "../core";
import type { ScanCase } from "../io/caseSchema";

export { scaleOf, uniformTolerance };

/** The case's recommended absolute tolerance, or the uniform rule when it has none. */
export function caseTolerance(c: ScanCase, precision: "float64" | "float32"): number {
  if (c.tolerance) return c.tolerance[precision];
  const T =
    c.kind === "reinforce_pp" || c.kind === "convention" ? c.lengths.reduce((a, b) => Math.max(a, b), 0) : c.shape[1];
  return uniformTolerance(precision, caseScale(c), T);
}

/** Largest magnitude of the inputs and expected outputs; 0/1 loss masks are not data and do not count. */
function caseScale(c: ScanCase): number {
  const inputs = Object.entries(c.inputs).filter(([name]) => name !== "loss_masks");
  const fields = [...inputs.map(([, values]) => values), ...(c.expected ? Object.values(c.expected) : [])];
  return scaleOf(...fields.map((field) => (field as (number | number[])[] | undefined)?.flat() ?? []));
}
