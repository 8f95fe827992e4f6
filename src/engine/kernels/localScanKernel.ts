/**
 * Every chunk's local scan on webgpu as one WGSL program, `ScanlabLocalScan`, instead of reverse,
 * pad, reshape and tf.matMul against the Toeplitz kernel. tfjs's matMul programs for this shape
 * tile through workgroup memory with barriers, which a software adapter pays most for
 * (../../shared/KERNELS.md): at 16 × 8192, C = 128 the matMul alone took 70–90 ms on SwiftShader,
 * this program 11–17 ms. Each invocation computes its outputs alone: no workgroup memory, no
 * barrier.
 *
 * `local[b, c, j] = Σ_l x[b, c·C + l]·M[l, j]`, x the row reversed and zero-padded to nChunks·C: the
 * reversal and the padding are folded into the reads (the same values, moved, never rounded). The
 * sum runs over every l in ascending order from 0, the zeros of M included, so a NaN or ±Inf reward
 * reaches the same outputs as through a matMul (Inf·0 is NaN). That is the order of netlib's sgemm,
 * slime's on Debian's torch (ALGORITHM.md §b.2), not necessarily tfjs's: on SwiftShader the sums
 * equalled a sequential float32 sum at every one of 14 shapes tried, and so did tfjs's matMul except
 * at a small output (3 × 37, C = 4: 23 of 120 elements, up to 8 ulp), where it sums in another order.
 * A compiler may still fuse a product into its sum on other adapters. Either way each element is
 * held to the chunked bound (docs/ERROR_BOUND.md); e2e/chunked-kernels.spec.ts counts the
 * differences from tfjs's ops.
 */
import * as tf from "@tensorflow/tfjs-core";
import type { FusedProgram } from "../fused/fusedPrograms";
import { registerOnce } from "./registerOnce";
import { dispatchOf, runProgram } from "./webgpuPrograms";

export const LOCAL_SCAN_KERNEL = "ScanlabLocalScan";

const WORKGROUP_SIZE = 64;

/**
 * Each invocation of the vec4 programs computes a tile of ROWS chunk rows × 4·QUADS columns: each
 * load of M serves ROWS sums, each load of rewards 4·QUADS. On SwiftShader at 16 × 8192 / 64 × 32768
 * (one page, interleaved, median of 7): 8 × 4 columns took 16 / 220 ms, 8 × 8 took 13 / 160,
 * 16 × 8 or 8 × 16 took 12 / 130; scalar reward loads added about a third. 8 × 8 (16 vec4 sums per
 * invocation) leaves a real GPU more registers and invocations in flight than 32 would.
 */
export const ROWS = 8;
export const QUADS = 2;

/** Which program serves a shape: vec4 columns when C allows (8 per invocation when it can), vec4 rewards when T does too. */
export interface LocalScanLayout {
  /** Columns in vec4s (C a multiple of 4), or one output per invocation. */
  vec4: boolean;
  /** Column quads per invocation: QUADS when C is a multiple of 4·QUADS, else 1. */
  quads: number;
  /** Four rewards per load (T a multiple of 4 too, so every chunk and the padding start on a multiple of 4). */
  vec4Rewards: boolean;
}

export function localScanLayout(cols: number, chunkSize: number): LocalScanLayout {
  const vec4 = chunkSize % 4 === 0;
  return {
    vec4,
    quads: vec4 && chunkSize % (4 * QUADS) === 0 ? QUADS : 1,
    vec4Rewards: vec4 && cols % 4 === 0,
  };
}

const range = (n: number) => Array.from({ length: n }, (_, i) => i);
const lines = (n: number, line: (i: number) => string) => range(n).map(line).join("\n");

/**
 * Columns 4q…4q+4·quads−1 of ROWS consecutive chunk rows (one tile) per invocation, C a multiple
 * of 4. A reward past its row's end (the padding) reads as 0; its index is clamped into the row
 * first, so no read leaves it. With vec4 rewards the four terms l…l+3 come in one load: reversed
 * time runs down memory, so they are the load's w, z, y, x, added in that order.
 */
export function vec4Source({ quads, vec4Rewards }: LocalScanLayout): string {
  const step = vec4Rewards ? 4 : 1;
  const lanes = vec4Rewards ? ["w", "z", "y", "x"] : [""];
  const term = (r: number) => {
    const load = vec4Rewards
      ? `select(vec4<f32>(0.0), x[max(top${r} - l / 4, rowStart${r})], first${r} + l < cols)`
      : `select(0.0, x[max(last${r} - first${r} - l, rowStart${r})], first${r} + l < cols)`;
    const adds = range(quads).flatMap((j) =>
      lanes.map((lane, k) => `    acc${r}_${j} = acc${r}_${j} + v${r}${lane ? `.${lane}` : ""} * w${k}_${j};`),
    );
    return [`    let v${r} = ${load};`, ...adds].join("\n");
  };
  return `
fn main(index : i32) {
  let quads = uniforms.outShape.z / 4;
  let groups = quads / ${quads};
  let chunks = uniforms.outShape.y;
  let chunkRows = uniforms.outShape.x * chunks;
  let tiles = (chunkRows + ${ROWS - 1}) / ${ROWS};
  if (index >= tiles * groups) { return; }
  let tile = index / groups;
  let q = (index - tile * groups) * ${quads};
  let cols = uniforms.xShape.y;
  let size = uniforms.outShape.z;
  let terms = uniforms.mShape.x;
${lines(
  ROWS,
  (r) => `  let row${r} = min(tile * ${ROWS} + ${r}, chunkRows - 1);
  let b${r} = row${r} / chunks;
  let first${r} = (row${r} - b${r} * chunks) * size;
  let last${r} = b${r} * cols + cols - 1;
  let top${r} = (last${r} - 3 - first${r}) / 4;
  let rowStart${r} = b${r} * cols / ${step};
${lines(quads, (j) => `  var acc${r}_${j} = vec4<f32>(0.0);`)}`,
)}
  for (var l = 0; l < terms; l = l + ${step}) {
${lines(step, (k) => lines(quads, (j) => `    let w${k}_${j} = m[(l + ${k}) * quads + q + ${j}];`))}
${lines(ROWS, term)}
  }
${lines(
  ROWS,
  (r) => `  if (tile * ${ROWS} + ${r} < chunkRows) {
${lines(quads, (j) => `    result[(tile * ${ROWS} + ${r}) * quads + q + ${j}] = acc${r}_${j};`)}
  }`,
)}
}
`;
}

/** One output per invocation, for any C. */
export const SCALAR_SOURCE = `
fn main(index : i32) {
  let size = uniforms.outShape.z;
  let chunks = uniforms.outShape.y;
  if (index >= uniforms.outShape.x * chunks * size) { return; }
  let chunkRow = index / size;
  let j = index - chunkRow * size;
  let b = chunkRow / chunks;
  let first = (chunkRow - b * chunks) * size;
  let cols = uniforms.xShape.y;
  let last = b * cols + cols - 1;
  let terms = uniforms.mShape.x;
  var acc = 0.0;
  for (var l = 0; l < terms; l = l + 1) {
    let v = select(0.0, x[max(last - first - l, b * cols)], first + l < cols);
    acc = acc + v * m[l * size + j];
  }
  result[index] = acc;
}
`;

/** `[B, nChunks, C]` local scans of `[B, T]` rewards against a `[K, C]` kernel (K = C, or T when C > T). */
export function localScanProgram(rows: number, cols: number, nChunks: number, chunkSize: number): FusedProgram {
  const layout = localScanLayout(cols, chunkSize);
  const common = {
    variableNames: ["x", "m"],
    outputShape: [rows, nChunks, chunkSize],
    dispatchLayout: { x: [0, 1, 2] },
    workgroupSize: [WORKGROUP_SIZE, 1, 1] as [number, number, number],
    uniforms: "",
  };
  if (!layout.vec4) {
    return {
      ...common,
      shaderKey: "scanlabLocalScan_scalar",
      dispatch: dispatchOf(Math.ceil((rows * nChunks * chunkSize) / WORKGROUP_SIZE)),
      getUserCode: () => SCALAR_SOURCE,
    };
  }
  const invocations = Math.ceil((rows * nChunks) / ROWS) * (chunkSize / 4 / layout.quads);
  return {
    ...common,
    shaderKey: `scanlabLocalScan_vec4_${layout.quads}_${layout.vec4Rewards ? "vec4" : "scalar"}Rewards`,
    dispatch: dispatchOf(Math.ceil(invocations / WORKGROUP_SIZE)),
    variableComponents: [layout.vec4Rewards ? 4 : 1, 4],
    outputComponent: 4,
    getUserCode: () => vec4Source(layout),
  };
}

/** Registers the kernel once (webgpu only); a second call is a no-op. */
export function registerLocalScanKernel(): void {
  registerOnce(LOCAL_SCAN_KERNEL, "webgpu", ({ inputs, backend, attrs }) => {
    const x = inputs.x as tf.TensorInfo;
    const m = inputs.m as tf.TensorInfo;
    const [rows, cols] = x.shape;
    return runProgram(backend, localScanProgram(rows, cols, attrs?.nChunks as number, m.shape[1]), [x, m]);
  });
}

/** Whether the active backend runs the kernel. */
export function runsLocalScanKernel(): boolean {
  return tf.getBackend() === "webgpu";
}

/** `[B, nChunks, C]` local scans of `[B, T]` rewards in original time, against the `[K, C]` Toeplitz kernel. Webgpu only. */
export function localScanKernel(rewards: tf.Tensor2D, toeplitz: tf.Tensor2D, nChunks: number): tf.Tensor3D {
  registerLocalScanKernel();
  return tf.engine().runKernel(LOCAL_SCAN_KERNEL, { x: rewards, m: toeplitz }, { nChunks }) as tf.Tensor3D;
}
