import { maxAbs } from "../core";
import type { ScanCase } from "../io/caseSchema";

/**
 * The case's recommended absolute tolerance; for a case without one, the uniform rule of the
 * cases README: float64 `1e-9·scale`, float32 `2e-6·scale·max(1, √T/16)`, where scale is the
 * largest magnitude among inputs and expected outputs and T the (longest) row length.
 */
export function caseTolerance(c: ScanCase, precision: "float64" | "float32"): number {
  if (c.tolerance) return c.tolerance[precision];
  const scale = caseScale(c);
  if (precision === "float64") return 1e-9 * scale;
  const T = c.kind === "reinforce_pp" ? Math.max(0, ...c.lengths) : c.shape[1];
  return 2e-6 * scale * Math.max(1, Math.sqrt(T) / 16);
}

function caseScale(c: ScanCase): number {
  const arrays: number[][] = [...Object.values(c.inputs).map((v) => (v as (number | number[])[]).flat())];
  if (c.expected)
    arrays.push(...Object.values(c.expected).map((v) => (v as (number | number[])[] | undefined)?.flat() ?? []));
  return Math.max(0, ...arrays.map(maxAbs));
}
