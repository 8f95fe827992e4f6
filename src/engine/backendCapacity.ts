import * as tf from "@tensorflow/tfjs-core";

/**
 * What the active backend can hold, read before a run allocates anything. A tensor beyond these
 * limits does not fail cleanly: on webgpu a buffer the device cannot allocate reads back as zeros,
 * on webgl a texture beyond the maximum fails to compile or to allocate, and on cpu the host
 * allocation grows without bound (8.9 GB for one 65536-token chunk). See docs in engineLimits.ts.
 */
export interface BackendCapacity {
  backend: string;
  /** Most float32 values in any one tensor. */
  maxTensorValues: number;
  /** Why, as the end of a sentence: `webgpu on this device allows at most 1023.94 MiB per buffer (…)`. */
  tensorLimit: string;
  /** Most rows one matMul may have (webgpu's workgroup dispatch limit); Infinity where there is none. */
  maxMatMulRows: number;
  matMulLimit?: string;
}

const KiB = 2 ** 10;
const MiB = 2 ** 20;
const GiB = 2 ** 30;

/**
 * No tensor above 1 GiB on any backend: the engine builds each discount kernel on the host as one
 * Float32Array before uploading it, so the host holds a copy of the largest tensor too.
 */
export const MAX_TENSOR_BYTES = GiB;

/**
 * cpu and wasm: the tensors live in the JavaScript heap or the wasm heap (at most 4 GiB for all
 * tensors together), and a run keeps about eight data-sized tensors alive at once. 256 MiB per
 * tensor allows a kernel of chunk size 8192 and 2^26 values of data.
 */
export const CPU_TENSOR_BYTES = 256 * MiB;

/**
 * Measured on SwiftShader (maxBufferSize = maxStorageBufferBindingSize = 1 GiB): a buffer of
 * 1 GiB − 16 bytes allocates, one of 1 GiB − 4 bytes fails with VK_ERROR_OUT_OF_DEVICE_MEMORY (the
 * driver pads it past the limit), and tfjs then reads the kernel as zeros. Through tfjs a kernel
 * of 1 GiB − 64 KiB (16383×16384) ran right and one of exactly 1 GiB returned zeros.
 */
export const WEBGPU_MARGIN_BYTES = 64 * KiB;

/** tfjs 4.22's webgpu matMul (MatMulPackedProgram) computes 32 output rows per workgroup. */
export const WEBGPU_MATMUL_ROWS_PER_WORKGROUP = 32;

export type WebGPULimits = Pick<
  GPUSupportedLimits,
  "maxBufferSize" | "maxStorageBufferBindingSize" | "maxComputeWorkgroupsPerDimension"
>;

/** The budget of a backend that keeps tensors in host memory (cpu, wasm, and any other). */
export function hostCapacity(backend: string): BackendCapacity {
  return {
    backend,
    maxTensorValues: CPU_TENSOR_BYTES / 4,
    tensorLimit: `the engine's memory budget on ${backend} is ${formatBytes(CPU_TENSOR_BYTES)} per tensor`,
    maxMatMulRows: Number.POSITIVE_INFINITY,
  };
}

/**
 * Every tensor is one storage buffer, bound whole: it must fit both maxBufferSize and
 * maxStorageBufferBindingSize (tfjs requests the adapter's own limits for its device), less the margin.
 */
export function webgpuCapacity(limits: WebGPULimits): BackendCapacity {
  const device = Math.min(limits.maxBufferSize, limits.maxStorageBufferBindingSize);
  const deviceBytes = device - WEBGPU_MARGIN_BYTES;
  const names =
    limits.maxBufferSize === limits.maxStorageBufferBindingSize
      ? `maxBufferSize and maxStorageBufferBindingSize are ${formatBytes(device)}`
      : `maxBufferSize ${formatBytes(limits.maxBufferSize)}, maxStorageBufferBindingSize ${formatBytes(limits.maxStorageBufferBindingSize)}`;
  const bytes = Math.min(deviceBytes, MAX_TENSOR_BYTES);
  const tensorLimit =
    bytes === deviceBytes
      ? `webgpu on this device allows at most ${formatBytes(bytes)} per buffer (${names}, less a ${formatBytes(WEBGPU_MARGIN_BYTES)} margin)`
      : `the engine holds at most ${formatBytes(bytes)} in one tensor (webgpu on this device would allow ${formatBytes(deviceBytes)})`;
  const workgroups = limits.maxComputeWorkgroupsPerDimension;
  return {
    backend: "webgpu",
    maxTensorValues: Math.floor(bytes / 4),
    tensorLimit,
    maxMatMulRows: WEBGPU_MATMUL_ROWS_PER_WORKGROUP * workgroups,
    matMulLimit:
      `tfjs's webgpu matMul computes ${WEBGPU_MATMUL_ROWS_PER_WORKGROUP} rows per workgroup and this device ` +
      `dispatches at most ${workgroups} workgroups per dimension, so at most ${formatCount(WEBGPU_MATMUL_ROWS_PER_WORKGROUP * workgroups)} rows`,
  };
}

/**
 * tfjs stores a tensor as a texture of one value per texel (packed textures hold four, but every
 * tensor also exists unpacked on upload) and squarifies a long shape, so a tensor fits when its
 * values fit maxTextureSize² texels. Measured with maxTextureSize 8192: kernels of 8192×8192 and
 * 4096×16384 values (2^26) ran right; 6000×16384 failed to allocate its texture and 16384×16384
 * failed to compile a shader.
 */
export function webglCapacity(maxTextureSize: number): BackendCapacity {
  const texels = maxTextureSize * maxTextureSize;
  const values = Math.min(texels, MAX_TENSOR_BYTES / 4);
  const tensorLimit =
    values === texels
      ? `webgl here holds at most ${formatCount(values)} float32 values (${formatBytes(4 * values)}) in one tensor (one value per texel of a texture of at most ${maxTextureSize}×${maxTextureSize})`
      : `the engine holds at most ${formatBytes(4 * values)} in one tensor (webgl here would allow ${formatCount(texels)} values)`;
  return { backend: "webgl", maxTensorValues: values, tensorLimit, maxMatMulRows: Number.POSITIVE_INFINITY };
}

/** The capacity of the backend tfjs runs now (`tf.getBackend()`). */
export function activeCapacity(backend: string): BackendCapacity {
  if (backend === "webgpu") {
    const device = (tf.backend() as unknown as { device?: GPUDevice }).device;
    if (device) return webgpuCapacity(device.limits);
  }
  if (backend === "webgl") return webglCapacity(tf.env().getNumber("WEBGL_MAX_TEXTURE_SIZE"));
  return hostCapacity(backend);
}

/** `1 GiB`, `256 MiB`, `1023.94 MiB`, `64 KiB`: binary units, at most two decimals. */
export function formatBytes(bytes: number): string {
  const [unit, size] =
    bytes >= 2 ** 40
      ? ["TiB", 2 ** 40]
      : bytes >= GiB
        ? ["GiB", GiB]
        : bytes >= MiB
          ? ["MiB", MiB]
          : bytes >= KiB
            ? ["KiB", KiB]
            : ["bytes", 1];
  return `${Number((bytes / (size as number)).toFixed(2))} ${unit}`;
}

/** `2,097,120`: thousands separated, the same in every locale. */
export function formatCount(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}
