/**
 * The fused kernel's programs, as plain data in tfjs's WebGPUProgram shape: tfjs declares the
 * bindings (`result` at 0, the input `x` at 1, then the uniforms with `xShape`, the output shape and
 * ours), and calls `main(index)` with the flat invocation index. Pure: the WGSL is generated from
 * the plan alone, and everything that varies between runs of one source (the shape, the discount)
 * travels as a uniform, so one compiled pipeline serves every shape (tfjs caches it by shaderKey).
 *
 * Numerics: each output is `x + d·g` with d = fl32(d), as in the serial float32 loop; no power is
 * ever taken with WGSL's pow (about 5× less accurate than multiplying, ../shared/KERNELS.md): the
 * one power the segments layout needs, d^L, is computed on the host (fusedUniforms.ts).
 */
import type { FusedPlan } from "./fusedLayout";

/** The subset of tfjs-backend-webgpu's WebGPUProgram this kernel fills in. */
export interface FusedProgram {
  variableNames: string[];
  outputShape: number[];
  shaderKey: string;
  dispatchLayout: { x: number[] };
  dispatch: [number, number, number];
  workgroupSize: [number, number, number];
  uniforms: string;
  variableComponents?: number[];
  outputComponent?: number;
  getUserCode(): string;
}

/** Uniforms of the returns program, in this order (fusedUniforms packs their values). */
export const SCAN_UNIFORMS = "discount : f32, segmentPower : f32, segmentLength : i32,";
/** Uniforms of the trace program. */
export const TRACE_UNIFORMS = "discount : f32, chunkSize : i32,";

/** `[B, T]` returns in original time, in one dispatch. */
export function scanProgram(plan: FusedPlan, rows: number, cols: number): FusedProgram {
  const groups = plan.layout === "rows" ? Math.ceil(rows / plan.workgroupSize) : rows;
  const source = plan.layout === "segments" ? segmentsSource(plan.workgroupSize) : rowsSource(plan.vec4);
  const key = plan.layout === "segments" ? `segments${plan.workgroupSize}` : plan.vec4 ? "rows_vec4" : "rows";
  return {
    variableNames: ["x"],
    outputShape: [rows, cols],
    shaderKey: `scanlabFused_${key}`,
    dispatchLayout: { x: [0, 1] },
    dispatch: [groups, 1, 1],
    workgroupSize: [plan.workgroupSize, 1, 1],
    uniforms: SCAN_UNIFORMS,
    ...(plan.vec4 ? { variableComponents: [4], outputComponent: 4 } : {}),
    getUserCode: () => source,
  };
}

/**
 * `[B, nChunks, C + 1]`: each chunk's zero-carry local scan in slime's reversed time (its padded
 * tail included, where the scan keeps decaying over zeros), then the carry entering it. One
 * invocation per row, serial; only run when a caller asks for the trace.
 */
export function traceProgram(rows: number, nChunks: number, chunkSize: number, workgroupSize: number): FusedProgram {
  return {
    variableNames: ["x"],
    outputShape: [rows, nChunks, chunkSize + 1],
    shaderKey: "scanlabFused_trace",
    dispatchLayout: { x: [0, 1, 2] },
    dispatch: [Math.ceil(rows / workgroupSize), 1, 1],
    workgroupSize: [workgroupSize, 1, 1],
    uniforms: TRACE_UNIFORMS,
    getUserCode: () => TRACE_SOURCE,
  };
}

/** One invocation per row, right to left: `g = x_t + d·g`, four tokens per load and store with vec4. */
export function rowsSource(vec4: boolean): string {
  if (vec4) {
    return `
fn main(index : i32) {
  if (index >= uniforms.xShape.x) { return; }
  let quads = uniforms.xShape.y / 4;
  let d = uniforms.discount;
  let first = index * quads;
  var g = 0.0;
  for (var q = quads - 1; q >= 0; q = q - 1) {
    let v = x[first + q];
    let g3 = v.w + d * g;
    let g2 = v.z + d * g3;
    let g1 = v.y + d * g2;
    let g0 = v.x + d * g1;
    result[first + q] = vec4<f32>(g0, g1, g2, g3);
    g = g0;
  }
}
`;
  }
  return `
fn main(index : i32) {
  if (index >= uniforms.xShape.x) { return; }
  let cols = uniforms.xShape.y;
  let d = uniforms.discount;
  let first = index * cols;
  var g = 0.0;
  for (var t = cols - 1; t >= 0; t = t - 1) {
    g = x[first + t] + d * g;
    result[first + t] = g;
  }
}
`;
}

/**
 * One workgroup per row, `lanes` segments of L tokens in reversed time (i = T − 1 − t). Pass 1:
 * each lane scans its segment from zero and leaves its end. Then lane 0 turns the ends into the
 * carry entering each segment, serially (`carry = end + d^L·carry`: slime's carry step with chunks
 * of L). Pass 2: each lane rescans its segment from its carry, exactly the serial loop. Two
 * barriers; no early return, so every barrier stays in uniform control flow.
 */
export function segmentsSource(lanes: number): string {
  return `
var<workgroup> segmentCarry : array<f32, ${lanes}>;

fn main(index : i32) {
  let row = i32(workgroupId.x + workgroupId.y * numWorkgroups.x);
  let lane = i32(localId.x);
  let cols = uniforms.xShape.y;
  let d = uniforms.discount;
  let len = uniforms.segmentLength;
  var start = min(lane * len, cols);
  var stop = min(start + len, cols);
  if (row >= uniforms.xShape.x) { stop = start; }
  let last = row * cols + cols - 1;
  var s = 0.0;
  for (var i = start; i < stop; i = i + 1) {
    s = x[last - i] + d * s;
  }
  segmentCarry[lane] = s;
  workgroupBarrier();
  if (lane == 0) {
    var carry = 0.0;
    for (var k = 0; k < ${lanes}; k = k + 1) {
      let end = segmentCarry[k];
      segmentCarry[k] = carry;
      carry = end + uniforms.segmentPower * carry;
    }
  }
  workgroupBarrier();
  var g = segmentCarry[lane];
  for (var i = start; i < stop; i = i + 1) {
    g = x[last - i] + d * g;
    result[last - i] = g;
  }
}
`;
}

/**
 * The trace, one invocation per row. `g` is the serial scan of the row (the carry entering each
 * chunk is its value at the previous chunk's last token); `acc` the chunk's own scan from zero.
 */
export const TRACE_SOURCE = `
fn main(index : i32) {
  if (index >= uniforms.xShape.x) { return; }
  let cols = uniforms.xShape.y;
  let size = uniforms.chunkSize;
  let chunks = uniforms.outShape.y;
  let d = uniforms.discount;
  let last = index * cols + cols - 1;
  let rowOut = index * chunks * (size + 1);
  var g = 0.0;
  for (var c = 0; c < chunks; c = c + 1) {
    let chunkOut = rowOut + c * (size + 1);
    result[chunkOut + size] = g;
    var acc = 0.0;
    for (var j = 0; j < size; j = j + 1) {
      let i = c * size + j;
      var v = 0.0;
      if (i < cols) {
        v = x[last - i];
        g = v + d * g;
      }
      acc = v + d * acc;
      result[chunkOut + j] = acc;
    }
  }
}
`;
