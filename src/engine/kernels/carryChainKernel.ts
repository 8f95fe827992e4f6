/**
 * The chunked strategy's carry chain (../carryChain.ts) as one kernel, `ScanlabCarryChain`: each
 * row's chain is a serial loop of nChunks multiply-adds, far too little work to pay an op each. At
 * 16 × 8192, C = 128 (64 chunks) the 2·63 ops took 3–6 ms on wasm and 17–20 ms on webgpu
 * (SwiftShader), the kernel 0.1 ms and 1–3 ms. Webgl keeps the ops (a readback there stalls). Inputs: the `[B, nChunks, C]` local scans (the chunk ends
 * are read at column C−1 in place) and the `[C]` carry powers (only the last, d^C, is used).
 * Output `[B, nChunks]`: the carry entering each chunk.
 *
 * Numerics, the same as the op-by-op chain: `s = fl(end + fl(s·p))`, the product and the sum each
 * rounded to float32.
 * - wasm and cpu: JavaScript on the backend's own memory, with Math.fround after the multiply and
 *   after the add. A product or sum of two float32 values computed in float64 and rounded once to
 *   float32 is the correctly rounded float32 result (float64 has more than 2·24 + 2 bits), which
 *   is what wasm's f32 ops and the cpu backend's Float32Array stores give: the same bits.
 * - webgpu: one invocation per row. WGSL lets a compiler contract `a·b + c` into a fused
 *   multiply-add (one rounding); the product is a `let` of its own, added in a separate
 *   statement, the form a compiler is least tempted to fuse. On SwiftShader the bits are the
 *   op-by-op chain's (e2e/chunked-kernels.spec.ts checks it); SwiftShader even rounds WGSL's own
 *   `fma()` twice (measured), so this adapter cannot show whether the form would stop another
 *   compiler from fusing. Not guaranteed on other adapters: a driver that fuses gives carries with
 *   one rounding fewer per link, within the chunked bound, but not slime's bits.
 */
import * as tf from "@tensorflow/tfjs-core";
import type { FusedProgram } from "../fused/fusedPrograms";
import { HOST_BACKENDS, type HostBackendName, runOnHost } from "./hostMemory";
import { registerOnce } from "./registerOnce";
import { runProgram } from "./webgpuPrograms";

export const CARRY_CHAIN_KERNEL = "ScanlabCarryChain";

/** Rows per workgroup: one invocation each, and B is small. */
const WORKGROUP_SIZE = 64;

export const CARRY_CHAIN_SOURCE = `
fn main(index : i32) {
  if (index >= uniforms.outShape.x) { return; }
  let chunks = uniforms.outShape.y;
  let size = uniforms.scansShape.z;
  let power = powers[size - 1];
  let firstEnd = index * chunks * size + size - 1;
  let firstOut = index * chunks;
  var carry = 0.0;
  result[firstOut] = carry;
  for (var c = 1; c < chunks; c = c + 1) {
    let product = carry * power;
    carry = scans[firstEnd + (c - 1) * size] + product;
    result[firstOut + c] = carry;
  }
}
`;

export function carryChainProgram(rows: number, nChunks: number): FusedProgram {
  return {
    variableNames: ["scans", "powers"],
    outputShape: [rows, nChunks],
    shaderKey: "scanlabCarryChain",
    dispatchLayout: { x: [0, 1] },
    dispatch: [Math.ceil(rows / WORKGROUP_SIZE), 1, 1],
    workgroupSize: [WORKGROUP_SIZE, 1, 1],
    uniforms: "",
    getUserCode: () => CARRY_CHAIN_SOURCE,
  };
}

/** The chain in float32 on host arrays: `scans` `[rows, nChunks, size]`, `out` `[rows, nChunks]`. */
export function chainOnHost(scans: Float32Array, powers: Float32Array, out: Float32Array, rows: number): void {
  const size = powers.length;
  const nChunks = out.length / rows;
  const power = powers[size - 1];
  for (let row = 0; row < rows; row++) {
    const firstEnd = row * nChunks * size + size - 1;
    const firstOut = row * nChunks;
    let carry = 0;
    out[firstOut] = carry;
    for (let c = 1; c < nChunks; c++) {
      carry = Math.fround(scans[firstEnd + (c - 1) * size] + Math.fround(carry * power));
      out[firstOut + c] = carry;
    }
  }
}

function hostKernel(backendName: HostBackendName): tf.KernelFunc {
  return ({ inputs, backend }) => {
    const scans = inputs.scans as tf.TensorInfo;
    const powers = inputs.powers as tf.TensorInfo;
    const [rows, nChunks] = scans.shape;
    return runOnHost(backendName, backend, [scans, powers], [rows, nChunks], ([s, p], out) =>
      chainOnHost(s, p, out, rows),
    );
  };
}

/** Registers the kernel once for each backend it serves; a second call is a no-op. */
export function registerCarryChainKernel(): void {
  for (const backendName of HOST_BACKENDS) registerOnce(CARRY_CHAIN_KERNEL, backendName, hostKernel(backendName));
  registerOnce(CARRY_CHAIN_KERNEL, "webgpu", ({ inputs, backend }) => {
    const scans = inputs.scans as tf.TensorInfo;
    const powers = inputs.powers as tf.TensorInfo;
    const [rows, nChunks] = scans.shape;
    return runProgram(backend, carryChainProgram(rows, nChunks), [scans, powers]);
  });
}

/** Whether the active backend runs the kernel (webgl chains op by op: carryChain.ts). */
export function runsCarryChainKernel(): boolean {
  const name = tf.getBackend();
  return name === "webgpu" || (HOST_BACKENDS as readonly string[]).includes(name);
}

/** `[B, nChunks]` carries from `[B, nChunks, C]` local scans and the `[C]` carry powers. */
export function carryChainKernel(scans: tf.Tensor3D, carryPowers: tf.Tensor1D): tf.Tensor2D {
  registerCarryChainKernel();
  return tf.engine().runKernel(CARRY_CHAIN_KERNEL, { scans, powers: carryPowers }) as tf.Tensor2D;
}
