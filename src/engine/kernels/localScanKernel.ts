/**
 * Every chunk's local scan on webgpu as one WGSL program, `ScanlabLocalScan`, instead of reverse,
 * pad, reshape and tf.matMul against the Toeplitz kernel. tfjs's matMul programs for this shape
 * tile through workgroup memory with barriers, which a software adapter pays most for
 * (../../shared/KERNELS.md): at 16 × 8192, C = 128 the matMul alone took 70–90 ms on SwiftShader,
 * this program 13–16 ms. Each invocation computes its outputs alone: no workgroup memory, no
 * barrier.
 *
 * `local[b, c, j] = Σ_l x[b, c·C + l]·M[l, j]`, x the row reversed and zero-padded to nChunks·C: the
 * reversal and the padding are folded into the reads (the same values, moved, never rounded). The
 * sum runs over every l in ascending order from 0, the zeros of M included, so a NaN or ±Inf reward
 * reaches the same outputs as through a matMul (Inf·0 is NaN). It is not tfjs's summation, which
 * may tile or fuse differently on other adapters; on SwiftShader the bits were the matMul's at
 * every shape tried (e2e/chunked-kernels.spec.ts counts the differences). Either way each element
 * is held to the chunked bound (docs/ERROR_BOUND.md).
 */
import * as tf from "@tensorflow/tfjs-core";
import type { FusedProgram } from "../fused/fusedPrograms";
import { dispatchOf, runProgram } from "./webgpuPrograms";

export const LOCAL_SCAN_KERNEL = "ScanlabLocalScan";

const WORKGROUP_SIZE = 64;

/**
 * Chunk rows per invocation of the vec4 programs: one load of M serves them all. On SwiftShader at
 * 16 × 8192 the program took 23, 19, 17 ms with 4, 8, 16 rows and scalar reward loads, 16, 14, 14
 * ms with vec4 ones (one page, interleaved); 8 keeps more invocations for a real GPU.
 */
export const ROWS_PER_INVOCATION = 8;

/** Which program serves a shape: four columns per invocation when C allows, four rewards per load when T does too. */
export type LocalScanLayout = "vec4" | "vec4Columns" | "scalar";

export function localScanLayout(cols: number, chunkSize: number): LocalScanLayout {
  if (chunkSize % 4 !== 0) return "scalar";
  return cols % 4 === 0 ? "vec4" : "vec4Columns";
}

const ROWS = Array.from({ length: ROWS_PER_INVOCATION }, (_, r) => r);
const eachRow = (line: (r: number) => string) => ROWS.map(line).join("\n");

/**
 * Columns 4q…4q+3 of ROWS_PER_INVOCATION consecutive chunk rows (one tile) per invocation, C a
 * multiple of 4. A reward past its row's end (the padding) reads as 0; the index is clamped into the
 * row first, so no read leaves it. With `vec4Rewards` (T a multiple of 4 too, so every chunk and
 * the padding start on a multiple of 4) four rewards come in one load: reversed time runs down
 * memory, so the terms l, l+1, l+2, l+3 are the load's w, z, y, x, added in that order.
 */
export function vec4Source(vec4Rewards: boolean): string {
  const term = vec4Rewards
    ? (
        r: number,
      ) => `    let v${r} = select(vec4<f32>(0.0), x[max(top${r} - l / 4, rowStart${r})], first${r} + l < cols);
    acc${r} = acc${r} + v${r}.w * w0;
    acc${r} = acc${r} + v${r}.z * w1;
    acc${r} = acc${r} + v${r}.y * w2;
    acc${r} = acc${r} + v${r}.x * w3;`
    : (r: number) => `    let v${r} = select(0.0, x[max(last${r} - first${r} - l, rowStart${r})], first${r} + l < cols);
    acc${r} = acc${r} + v${r} * w0;`;
  const step = vec4Rewards ? 4 : 1;
  return `
fn main(index : i32) {
  let quads = uniforms.outShape.z / 4;
  let chunks = uniforms.outShape.y;
  let chunkRows = uniforms.outShape.x * chunks;
  let tiles = (chunkRows + ${ROWS_PER_INVOCATION - 1}) / ${ROWS_PER_INVOCATION};
  if (index >= tiles * quads) { return; }
  let tile = index / quads;
  let q = index - tile * quads;
  let cols = uniforms.xShape.y;
  let size = uniforms.outShape.z;
  let terms = uniforms.mShape.x;
${eachRow(
  (r) => `  let row${r} = min(tile * ${ROWS_PER_INVOCATION} + ${r}, chunkRows - 1);
  let b${r} = row${r} / chunks;
  let first${r} = (row${r} - b${r} * chunks) * size;
  let last${r} = b${r} * cols + cols - 1;
  let top${r} = (last${r} - 3 - first${r}) / 4;
  let rowStart${r} = b${r} * cols / ${step};
  var acc${r} = vec4<f32>(0.0);`,
)}
  for (var l = 0; l < terms; l = l + ${step}) {
${Array.from({ length: step }, (_, k) => `    let w${k} = m[(l + ${k}) * quads + q];`).join("\n")}
${eachRow(term)}
  }
${eachRow(
  (r) =>
    `  if (tile * ${ROWS_PER_INVOCATION} + ${r} < chunkRows) { result[(tile * ${ROWS_PER_INVOCATION} + ${r}) * quads + q] = acc${r}; }`,
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
  if (layout === "scalar") {
    return {
      ...common,
      shaderKey: "scanlabLocalScan_scalar",
      dispatch: dispatchOf(Math.ceil((rows * nChunks * chunkSize) / WORKGROUP_SIZE)),
      getUserCode: () => SCALAR_SOURCE,
    };
  }
  const invocations = Math.ceil((rows * nChunks) / ROWS_PER_INVOCATION) * (chunkSize / 4);
  const vec4Rewards = layout === "vec4";
  return {
    ...common,
    shaderKey: `scanlabLocalScan_${layout}`,
    dispatch: dispatchOf(Math.ceil(invocations / WORKGROUP_SIZE)),
    variableComponents: [vec4Rewards ? 4 : 1, 4],
    outputComponent: 4,
    getUserCode: () => vec4Source(vec4Rewards),
  };
}

/** Registers the kernel once (webgpu only); a second call is a no-op. */
export function registerLocalScanKernel(): void {
  if (tf.getKernel(LOCAL_SCAN_KERNEL, "webgpu")) return;
  tf.registerKernel({
    kernelName: LOCAL_SCAN_KERNEL,
    backendName: "webgpu",
    kernelFunc: ({ inputs, backend, attrs }) => {
      const x = inputs.x as tf.TensorInfo;
      const m = inputs.m as tf.TensorInfo;
      const [rows, cols] = x.shape;
      return runProgram(backend, localScanProgram(rows, cols, attrs?.nChunks as number, m.shape[1]), [x, m]);
    },
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
