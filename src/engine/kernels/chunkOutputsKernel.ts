/**
 * The last step of the chunked scans as one kernel, `ScanlabChunkOutputs`: every output
 * `G = local[b, c, k] + s[b, c]·d^(k+1)`, the padded tail cut and time turned back, where the ops
 * took a multiply, an add, a slice and a reverse over the whole batch (a dispatch each on webgpu,
 * and wasm's Reverse alone took 4–5 ms at 16 × 8192). Inputs: the `[B, nChunks, C]` local scans,
 * the `[B, nChunks]` carries and the `[C]` carry powers; attribute `cols` (T). Output `[B, T]` in
 * original time: `out[b, t]` is element `i = T − 1 − t` of the scan in reversed time.
 *
 * Numerics, the same as the ops': the product and the sum each rounded to float32. On wasm and cpu
 * with Math.fround after each (exactly binary32: carryChainKernel.ts says why); on webgpu the
 * product is a `let` of its own, added in a separate statement (the same bits as the ops on
 * SwiftShader: e2e/chunked-kernels.spec.ts; a compiler elsewhere may fuse them, one rounding fewer,
 * within the bound).
 */
import * as tf from "@tensorflow/tfjs-core";
import type { FusedProgram } from "../fused/fusedPrograms";
import { HOST_BACKENDS, type HostBackendName, runOnHost } from "./hostMemory";
import { registerOnce } from "./registerOnce";
import { dispatchOf, runProgram } from "./webgpuPrograms";

export const CHUNK_OUTPUTS_KERNEL = "ScanlabChunkOutputs";

const WORKGROUP_SIZE = 64;

/**
 * Four outputs per invocation, T and C multiples of 4: outputs t…t+3 are reversed-time elements
 * i…i−3 of one chunk, one vec4 of the local scans and of the powers, taken back to front.
 */
export const VEC4_SOURCE = `
fn main(index : i32) {
  let quads = uniforms.outShape.y / 4;
  if (index >= uniforms.outShape.x * quads) { return; }
  let b = index / quads;
  let t = (index - b * quads) * 4;
  let size = uniforms.scansShape.z;
  let chunks = uniforms.scansShape.y;
  let low = uniforms.outShape.y - 4 - t;
  let c = low / size;
  let k = low - c * size;
  let product = carries[b * chunks + c] * powers[k / 4];
  let sum = scans[((b * chunks + c) * size + k) / 4] + product;
  result[index] = sum.wzyx;
}
`;

/** One output per invocation, for any T and C. */
export const SCALAR_SOURCE = `
fn main(index : i32) {
  let cols = uniforms.outShape.y;
  if (index >= uniforms.outShape.x * cols) { return; }
  let b = index / cols;
  let i = cols - 1 - (index - b * cols);
  let size = uniforms.scansShape.z;
  let chunks = uniforms.scansShape.y;
  let c = i / size;
  let k = i - c * size;
  let product = carries[b * chunks + c] * powers[k];
  result[index] = scans[(b * chunks + c) * size + k] + product;
}
`;

export function chunkOutputsProgram(rows: number, cols: number, chunkSize: number): FusedProgram {
  const vec4 = cols % 4 === 0 && chunkSize % 4 === 0;
  const invocations = (rows * cols) / (vec4 ? 4 : 1);
  return {
    variableNames: ["scans", "carries", "powers"],
    outputShape: [rows, cols],
    shaderKey: vec4 ? "scanlabChunkOutputs_vec4" : "scanlabChunkOutputs",
    dispatchLayout: { x: [0, 1] },
    dispatch: dispatchOf(Math.ceil(invocations / WORKGROUP_SIZE)),
    workgroupSize: [WORKGROUP_SIZE, 1, 1],
    uniforms: "",
    ...(vec4 ? { variableComponents: [4, 1, 4], outputComponent: 4 } : {}),
    getUserCode: () => (vec4 ? VEC4_SOURCE : SCALAR_SOURCE),
  };
}

/** The outputs in float32 on host arrays. */
export function outputsOnHost(
  scans: Float32Array,
  carries: Float32Array,
  powers: Float32Array,
  out: Float32Array,
  rows: number,
): void {
  const size = powers.length;
  const chunks = carries.length / rows;
  const cols = out.length / rows;
  for (let b = 0; b < rows; b++) {
    const rowEnd = b * cols + cols - 1;
    for (let c = 0; c * size < cols; c++) {
      const chunk = b * chunks + c;
      const carry = carries[chunk];
      const valid = Math.min(size, cols - c * size);
      for (let k = 0, at = chunk * size, t = rowEnd - c * size; k < valid; k++, at++, t--) {
        out[t] = Math.fround(scans[at] + Math.fround(carry * powers[k]));
      }
    }
  }
}

function hostKernel(backendName: HostBackendName): tf.KernelFunc {
  return ({ inputs, backend, attrs }) => {
    const { scans, carries, powers } = inputs as Record<string, tf.TensorInfo>;
    const rows = scans.shape[0];
    return runOnHost(backendName, backend, [scans, carries, powers], [rows, attrs?.cols as number], ([s, c, p], out) =>
      outputsOnHost(s, c, p, out, rows),
    );
  };
}

/** Registers the kernel once for each backend it serves; a second call is a no-op. */
export function registerChunkOutputsKernel(): void {
  for (const backendName of HOST_BACKENDS) registerOnce(CHUNK_OUTPUTS_KERNEL, backendName, hostKernel(backendName));
  registerOnce(CHUNK_OUTPUTS_KERNEL, "webgpu", ({ inputs, backend, attrs }) => {
    const { scans, carries, powers } = inputs as Record<string, tf.TensorInfo>;
    const program = chunkOutputsProgram(scans.shape[0], attrs?.cols as number, scans.shape[2]);
    return runProgram(backend, program, [scans, carries, powers]);
  });
}

/** Whether the active backend runs the kernel (webgl keeps the ops). */
export function runsChunkOutputsKernel(): boolean {
  const name = tf.getBackend();
  return name === "webgpu" || (HOST_BACKENDS as readonly string[]).includes(name);
}

/** `[B, T]` returns in original time from the local scans, the carries into the chunks and the carry powers. */
export function chunkOutputsKernel(
  scans: tf.Tensor3D,
  carries: tf.Tensor2D,
  carryPowers: tf.Tensor1D,
  cols: number,
): tf.Tensor2D {
  registerChunkOutputsKernel();
  return tf.engine().runKernel(CHUNK_OUTPUTS_KERNEL, { scans, carries, powers: carryPowers }, { cols }) as tf.Tensor2D;
}
