import { arrayOf, type FloatArray, type Precision } from "./batch";
import { DEBIAN_TORCH_AVX2, type KernelPatch, type TorchCpu, torchPowTables } from "./torchPow";

/**
 * The two power tables of slime's chunked scan, for chunk size C:
 * - `kernelRow[k] = d^k` (k < C) is row 0 of the upper-triangular kernel M,
 *   `M[i][j] = kernelRow[j - i]` for j ≥ i, else 0, except where `kernelPatches` says otherwise;
 * - `carryPowers[k] = d^(k+1)` scales the carry entering a chunk at its position k.
 *
 * Field names follow the golden files (`float32_pow_tables.M_row0`, `pow_vec`, `M_patches`).
 */
export interface PowTables<A extends FloatArray = FloatArray> {
  kernelRow: A;
  carryPowers: A;
  /**
   * Entries of M that are not `kernelRow[col - row]`. torch computes M elementwise, and the few
   * elements its scalar loop handles can round differently from the vectorised row 0.
   */
  kernelPatches?: readonly KernelPatch[];
}

/**
 * Where float32 powers come from:
 * - "torch-cpu": what torch's CPU pow kernel returns (SLEEF's vectorised powf, glibc's powf in
 *   the scalar tails; torchPow/), i.e. the tables slime itself multiplies with on CPU;
 * - "correctly-rounded": fl32(fl32(d)^k), the power taken in float64 and rounded once.
 */
export type PowerSource = "torch-cpu" | "correctly-rounded";

/** How a page or report names the tables it used. */
export function powerSourceLabel(source: PowerSource, cpu: TorchCpu = DEBIAN_TORCH_AVX2): string {
  if (source === "correctly-rounded") return "correctly rounded powers";
  const threads = cpu.threads === 1 ? "1 thread" : `${cpu.threads} threads`;
  return `torch CPU float32 powers (${cpu.capability === "avx2" ? "AVX2" : "default capability"}, ${threads})`;
}

/**
 * The tables as slime builds them: `discount ** k` evaluated in the working precision, so in
 * float32 the base is fl32(d). In float32 the default is torch's own CPU powers, bit for bit
 * (Debian's torch 1.13 on an AVX2 CPU, one thread): torch's pow is not correctly rounded, and
 * differs from fl32(fl32(d)^k) in 1–3 % of the entries for discounts like 0.9 … 0.999 (0.99^30:
 * 0.7397005558 against 0.7397006154; docs/torch-powers.md). float64 tables are always the float64 power (torch's float64 pow is not
 * emulated; a float64 scan is no bit-for-bit replay of slime anyway).
 * `discount === 0` takes slime's identity branch: M = I and no carry.
 */
export function discountPowers(
  discount: number,
  chunkSize: number,
  precision: Precision,
  source: PowerSource = "torch-cpu",
  cpu: TorchCpu = DEBIAN_TORCH_AVX2,
): PowTables {
  if (discount === 0) {
    const kernelRow = arrayOf(precision, chunkSize);
    kernelRow[0] = 1;
    return { kernelRow, carryPowers: arrayOf(precision, chunkSize) };
  }
  if (precision === "float32" && source === "torch-cpu") return cachedTorchTables(discount, chunkSize, cpu);
  return powersOf(precision === "float32" ? Math.fround(discount) : discount, chunkSize, precision);
}

/**
 * The tables for a base given exactly (a float64 number): each power taken in float64, then
 * rounded once to the precision. The two-level engine uses it for `fl32(d)^C`, which is not a
 * float32 number and must not be rounded before its powers are taken.
 */
export function powersOf(base: number, chunkSize: number, precision: Precision): PowTables {
  const kernelRow = arrayOf(precision, chunkSize);
  const carryPowers = arrayOf(precision, chunkSize);
  for (let k = 0; k < chunkSize; k++) {
    kernelRow[k] = base ** k;
    carryPowers[k] = base ** (k + 1);
  }
  return { kernelRow, carryPowers };
}

// A slider drag asks for the same few tables again and again; each costs 2·C powf emulations.
const CACHE_SIZE = 16;
const cache = new Map<string, PowTables<Float32Array>>();

function cachedTorchTables(discount: number, chunkSize: number, cpu: TorchCpu): PowTables {
  const key = `${Math.fround(discount)}|${chunkSize}|${cpu.capability}|${cpu.threads}`;
  let tables = cache.get(key);
  if (!tables) {
    tables = torchPowTables(discount, chunkSize, cpu);
    cache.set(key, tables);
    if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  }
  // Copies: a caller may write into its tables.
  return {
    kernelRow: tables.kernelRow.slice(),
    carryPowers: tables.carryPowers.slice(),
    kernelPatches: tables.kernelPatches?.map((p) => ({ ...p })),
  };
}
