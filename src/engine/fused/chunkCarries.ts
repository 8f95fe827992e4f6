/**
 * The two-level scan's carries on webgpu, as one small WGSL kernel (`ScanlabChunkCarries`) instead
 * of a slice of the chunk ends and a matMul against the n×n chunk-end kernel. On a small output
 * tfjs picks a matMul program that reduces every output across a 256-lane workgroup with eight
 * barriers (or tiles it through workgroup memory), and barriers are what a software adapter pays
 * most for (../shared/KERNELS.md): at 1 × 1024 that matMul cost more than chunked's whole carry
 * loop. Here each invocation sums its own carry, with no barrier, reading the chunk ends straight
 * out of the local scans and n powers instead of n² kernel entries. Registered for webgpu only;
 * nothing from tfjs-backend-webgpu is imported at run time.
 */
import * as tf from "@tensorflow/tfjs-core";
import { registerOnce } from "../kernels/registerOnce";
import { runProgram } from "../kernels/webgpuPrograms";
import type { FusedProgram } from "./fusedPrograms";

export const CHUNK_CARRIES_KERNEL = "ScanlabChunkCarries";

/** Invocations per workgroup: rows × chunks is small (at most 2^20), so any size serves. */
const WORKGROUP_SIZE = 64;

/**
 * `carry[b, c] = Σ_{k<c} end[b, k]·powers[c−1−k]` with `end[b, k] = scans[b, k, C−1]`: the
 * chunk-end kernel's products (its entry `W[k][c]` is `powers[c−1−k]`) added from k = 0 up, the
 * order of the tiled matMul programs tfjs picks for larger outputs (the same bits on SwiftShader
 * at 8 × 4096 and 64 × 32768; its 256-lane reduction adds in a tree instead, so a carry at
 * 1 × 1024 may move by an ulp, within the two-level bound). Only k < c is read, where the matMul
 * also multiplied the kernel's zeros: the same sums for finite chunk ends, and a NaN or ±Inf end
 * no longer reaches the carries of the chunks before it.
 */
export const CHUNK_CARRIES_SOURCE = `
fn main(index : i32) {
  let chunks = uniforms.outShape.y;
  if (index >= uniforms.outShape.x * chunks) { return; }
  let row = index / chunks;
  let c = index - row * chunks;
  let size = uniforms.scansShape.z;
  let firstEnd = row * chunks * size + size - 1;
  var carry = 0.0;
  for (var k = 0; k < c; k = k + 1) {
    let term = scans[firstEnd + k * size] * powers[c - 1 - k];
    carry = carry + term;
  }
  result[index] = carry;
}
`;

/** `[B, nChunks]` carries from `[B, nChunks, C]` local scans and `[nChunks]` powers. */
export function chunkCarriesProgram(rows: number, nChunks: number): FusedProgram {
  return {
    variableNames: ["scans", "powers"],
    outputShape: [rows, nChunks],
    shaderKey: "scanlabChunkCarries",
    dispatchLayout: { x: [0, 1] },
    dispatch: [Math.ceil((rows * nChunks) / WORKGROUP_SIZE), 1, 1],
    workgroupSize: [WORKGROUP_SIZE, 1, 1],
    uniforms: "",
    getUserCode: () => CHUNK_CARRIES_SOURCE,
  };
}

/** Registers the kernel once; a second call is a no-op. */
export function registerChunkCarriesKernel(): void {
  registerOnce(CHUNK_CARRIES_KERNEL, "webgpu", ({ inputs, backend }) => {
    const scans = inputs.scans as tf.TensorInfo;
    const powers = inputs.powers as tf.TensorInfo;
    const [rows, nChunks] = scans.shape;
    return runProgram(backend, chunkCarriesProgram(rows, nChunks), [scans, powers]);
  });
}

/** Whether the active backend runs the kernel (it is registered for webgpu only). */
export function runsChunkCarries(): boolean {
  return tf.getBackend() === "webgpu";
}

/** The kernel on `[B, nChunks, C]` local scans and a `[nChunks]` float32 powers tensor. Webgpu only. */
export function chunkCarries(scans: tf.Tensor3D, powers: tf.Tensor1D): tf.Tensor2D {
  registerChunkCarriesKernel();
  return tf.engine().runKernel(CHUNK_CARRIES_KERNEL, { scans, powers }) as tf.Tensor2D;
}
