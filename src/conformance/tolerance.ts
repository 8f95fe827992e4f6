import { maxAbs } from "../core";
import type { ScanCase } from "../io/caseSchema";

/**
 * The cases README's uniform absolute tolerance, for data without a golden `tolerance`:
 * float64 `1e-9·scale`, float32 `2e-6·scale·max(1, √T/16)`, where scale is the largest magnitude
 * among inputs and expected outputs and T the (longest) row length.
 */
export function uniformTolerance(precision: "float32" | "float64", scale: number, T: number): number {
  return precision === "float64" ? 1e-9 * scale : 2e-6 * scale * Math.max(1, Math.sqrt(T) / 16);
}

/** The largest magnitude among several arrays: the `scale` of the tolerance rule. */
export function scaleOf(...arrays: ArrayLike<number>[]): number {
  return arrays.reduce<number>((max, values) => Math.max(max, maxAbs(values)), 0);
}

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
