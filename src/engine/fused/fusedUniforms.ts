import type { FusedPlan } from "./fusedLayout";

/** One custom uniform value as tfjs's runWebGPUProgram takes it, in declaration order. */
export type UniformValue = { type: "float32" | "int32"; data: number[] };

/**
 * Values of SCAN_UNIFORMS. The discount is fl32(d), as in slime's float32 loop; the segment power
 * `fl32(d)^L` is taken in float64 and rounded once (within one ulp of the true power, inside the
 * POWER_ULPS the error bound allows), never with WGSL's pow nor by compounding float32 products.
 */
export function scanUniforms(plan: FusedPlan, discount: number): UniformValue[] {
  const d = Math.fround(discount);
  return [
    { type: "float32", data: [d] },
    { type: "float32", data: [Math.fround(d ** plan.segmentLength)] },
    { type: "int32", data: [plan.segmentLength] },
  ];
}

/** Values of TRACE_UNIFORMS. */
export function traceUniforms(discount: number, chunkSize: number): UniformValue[] {
  return [
    { type: "float32", data: [Math.fround(discount)] },
    { type: "int32", data: [chunkSize] },
  ];
}
