/**
 * Which elements of one torch CPU elementwise call (`scalar ** float32 tensor`) go through the
 * vectorised loop and which through the scalar one (torch 1.13, aten/src/ATen/native/cpu/Loops.h
 * and TensorIterator::for_each):
 *
 * - `pow(Scalar, Tensor)` wraps the Python float as a 0-dim tensor, so the TensorIterator sees a
 *   stride-0 base and the contiguous exponent; `cpu_kernel_vec`'s `vectorized_loop` then runs
 *   `Vectorized<float>::pow` on blocks of 2·Vec::size() elements (16 floats on AVX2) and hands the
 *   rest, fewer than 16, to `basic_loop`, i.e. `std::pow(float, float)`.
 * - Built for the DEFAULT capability, `Vectorized<float>::pow` itself maps `std::pow` over its
 *   lanes: every element is scalar.
 * - Above GRAIN_SIZE = 32768 elements, with more than one thread, `at::parallel_for` (OpenMP)
 *   cuts the range into min(threads, ⌈n / 32768⌉) slices of ⌈n / slices⌉ elements, and each
 *   slice has its own scalar tail.
 */

export type TorchCpuCapability = "avx2" | "default";

export interface TorchCpu {
  /** `torch.__config__.show()`'s "CPU capability usage"; ATEN_CPU_CAPABILITY forces it. */
  capability: TorchCpuCapability;
  /** `torch.get_num_threads()` when the tables were built. */
  threads: number;
}

/** Debian bookworm's torch 1.13.1 on an AVX2 CPU, one thread: how slime's golden cases were made. */
export const DEBIAN_TORCH_AVX2: TorchCpu = { capability: "avx2", threads: 1 };

/** AVX2's Vectorized<float> holds 8 lanes; the loop takes two vectors per step. */
const AVX2_BLOCK = 16;
/** at::internal::GRAIN_SIZE */
const GRAIN_SIZE = 32768;

/** The [start, end) ranges of a call over n elements that the scalar `std::pow` computes. */
export function scalarRanges(n: number, cpu: TorchCpu): Array<[number, number]> {
  if (n <= 0) return [];
  if (cpu.capability === "default") return [[0, n]];
  const ranges: Array<[number, number]> = [];
  for (const [begin, end] of threadSlices(n, cpu.threads)) {
    const vectorEnd = begin + Math.floor((end - begin) / AVX2_BLOCK) * AVX2_BLOCK;
    if (vectorEnd < end) ranges.push([vectorEnd, end]);
  }
  return ranges;
}

/** The slices `TensorIterator::for_each` gives each OpenMP thread. */
export function threadSlices(n: number, threads: number): Array<[number, number]> {
  // for_each stays serial below the grain size; parallel_for also when n is not above it.
  if (threads <= 1 || n <= GRAIN_SIZE) return [[0, n]];
  const slices = Math.min(threads, Math.ceil(n / GRAIN_SIZE));
  const size = Math.ceil(n / slices);
  const out: Array<[number, number]> = [];
  for (let t = 0; t < slices; t++) {
    const begin = t * size;
    if (begin < n) out.push([begin, Math.min(n, begin + size)]);
  }
  return out;
}

/** Whether element i of a call over n elements is computed by the scalar loop. */
export function isScalarElement(i: number, n: number, cpu: TorchCpu): boolean {
  return scalarRanges(n, cpu).some(([s, e]) => i >= s && i < e);
}
