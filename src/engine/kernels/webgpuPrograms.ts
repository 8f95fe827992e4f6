/**
 * Running Scanlab's WGSL programs on tfjs's webgpu backend, duck-typed: nothing from
 * tfjs-backend-webgpu is imported at run time, so the engine still loads where that package is not
 * (the Node CLI). A program is plain data in tfjs's WebGPUProgram shape (fused/fusedPrograms.ts).
 */
import type * as tf from "@tensorflow/tfjs-core";
import type { FusedProgram } from "../fused/fusedPrograms";

interface WebGPUBackendLike {
  runWebGPUProgram(program: FusedProgram, inputs: tf.TensorInfo[], outputDtype: tf.DataType): tf.TensorInfo;
}

export function runProgram(backend: unknown, program: FusedProgram, inputs: tf.TensorInfo[]): tf.TensorInfo {
  return (backend as WebGPUBackendLike).runWebGPUProgram(program, inputs, "float32");
}

/** WebGPU's default maxComputeWorkgroupsPerDimension. */
const MAX_GROUPS_PER_DIMENSION = 65535;

/**
 * A dispatch of at least `groups` workgroups: beyond 65535 they spill into y, which tfjs's flat
 * index (`main(index)`) folds back in; the extra invocations fail the program's bounds check.
 */
export function dispatchOf(groups: number): [number, number, number] {
  if (groups <= MAX_GROUPS_PER_DIMENSION) return [groups, 1, 1];
  return [MAX_GROUPS_PER_DIMENSION, Math.ceil(groups / MAX_GROUPS_PER_DIMENSION), 1];
}
