/**
 * The fused scan as two tfjs kernels on the webgpu backend only: `ScanlabFusedScan` (the returns,
 * one dispatch) and `ScanlabFusedTrace` (the chunk intermediates, run only when asked). Nothing
 * from tfjs-backend-webgpu is imported at run time, so the engine still loads where that package
 * is not (the Node CLI); the backend object comes from tfjs when the kernel runs.
 */
import * as tf from "@tensorflow/tfjs-core";
import { registerOnce } from "../kernels/registerOnce";
import { type FusedAdapter, fusedPlan, isSoftwareAdapter, parseLayoutRequest } from "./fusedLayout";
import { type FusedProgram, scanProgram, traceProgram } from "./fusedPrograms";
import { scanUniforms, traceUniforms, type UniformValue } from "./fusedUniforms";

export const FUSED_SCAN_KERNEL = "ScanlabFusedScan";
export const FUSED_TRACE_KERNEL = "ScanlabFusedTrace";
/**
 * Forces a layout (`rows` or `segments`; `auto` by default) so tests can run every layout on any
 * adapter. A tfjs flag: `tf.env().set(FUSED_LAYOUT_FLAG, "segments")`.
 */
export const FUSED_LAYOUT_FLAG = "SCANLAB_FUSED_LAYOUT";

/** The part of tfjs's WebGPUBackend the kernels use. */
interface WebGPUBackendLike {
  runWebGPUProgram(
    program: FusedProgram,
    inputs: tf.TensorInfo[],
    outputDtype: tf.DataType,
    uniforms?: UniformValue[],
  ): tf.TensorInfo;
  device?: GPUDevice & { adapterInfo?: GPUAdapterInfo & { isFallbackAdapter?: boolean } };
  adapterInfo?: { vendor?: string; architecture?: string };
}

/** Registers both kernels once; a second call is a no-op. */
export function registerFusedKernels(): void {
  if (!isRegisteredFlag(FUSED_LAYOUT_FLAG)) tf.env().registerFlag(FUSED_LAYOUT_FLAG, () => "auto");
  registerOnce(FUSED_SCAN_KERNEL, "webgpu", runScan);
  registerOnce(FUSED_TRACE_KERNEL, "webgpu", runTrace);
}

type KernelArgs = Parameters<tf.KernelFunc>[0];

function runScan({ inputs, backend, attrs }: KernelArgs): tf.TensorInfo {
  const x = inputs.x as tf.TensorInfo;
  const [rows, cols] = x.shape;
  const discount = attrs?.discount as number;
  const gpu = backend as unknown as WebGPUBackendLike;
  const plan = fusedPlan({ rows, cols }, discount, adapterOf(gpu), parseLayoutRequest(tf.env().get(FUSED_LAYOUT_FLAG)));
  return gpu.runWebGPUProgram(scanProgram(plan, rows, cols), [x], "float32", scanUniforms(plan, discount));
}

function runTrace({ inputs, backend, attrs }: KernelArgs): tf.TensorInfo {
  const x = inputs.x as tf.TensorInfo;
  const [rows] = x.shape;
  const discount = attrs?.discount as number;
  const chunkSize = attrs?.chunkSize as number;
  const nChunks = attrs?.nChunks as number;
  const gpu = backend as unknown as WebGPUBackendLike;
  const plan = fusedPlan({ rows, cols: x.shape[1] }, discount, adapterOf(gpu), "rows");
  const program = traceProgram(rows, nChunks, chunkSize, plan.workgroupSize);
  return gpu.runWebGPUProgram(program, [x], "float32", traceUniforms(discount, chunkSize));
}

/** tfjs has no public "is this flag registered": reading an unregistered one throws. */
function isRegisteredFlag(name: string): boolean {
  try {
    tf.env().get(name);
    return true;
  } catch {
    return false;
  }
}

function adapterOf(gpu: WebGPUBackendLike): FusedAdapter {
  const info = gpu.device?.adapterInfo ?? gpu.adapterInfo ?? {};
  return { software: isSoftwareAdapter(info) };
}
