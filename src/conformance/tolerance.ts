import { scaleOf, uniformTolerance } from "../core";

export { scaleOf, uniformTolerance };

import type { ScanCase } from "../io/caseSchema";

/** The case's recommended absolute tolerance, or the uniform rule when it has none. */
export function caseTolerance(c: ScanCase, precision: "float64" | "float32"): number {
  if (c.tolerance) return c.tolerance[precision];
  const T =
    c.kind === "reinforce_pp" || c.kind === "convention" ? c.lengths.reduce((a, b) => Math.max(a, b), 0) : c.shape[1];
  return uniformTolerance(precision, caseScale(c), T);
}

function caseScale(c: ScanCase): number {
  const fields = [...Object.values(c.inputs), ...(c.expected ? Object.values(c.expected) : [])];
  return scaleOf(...fields.map((field) => (field as (number | number[])[] | undefined)?.flat() ?? []));
}
