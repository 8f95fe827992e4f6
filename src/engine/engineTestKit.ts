/**
 * Helpers shared by the engine's tests (not imported by the engine itself): the cpu backend,
 * seeded float32-representable data and the float32 tolerance rule of the cases README.
 */
import "@tensorflow/tfjs-backend-cpu";
import * as tf from "@tensorflow/tfjs-core";
import { maxAbs } from "../core";

/** Makes the cpu backend the active one (what the caller of runProblem is responsible for). */
export async function useCpuBackend(): Promise<void> {
  if (!(await tf.setBackend("cpu")) || tf.getBackend() !== "cpu") throw new Error("the tfjs cpu backend did not start");
}

/** mulberry32: a tiny seeded generator of uniforms in [0, 1), so failures reproduce. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** n N(0, scale²) draws, each rounded to float32 so the float64 truth sees the same inputs. */
export function normals(random: () => number, n: number, scale = 1): Float64Array {
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const u = 1 - random();
    out[i] = Math.fround(scale * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random()));
  }
  return out;
}

/** A 0/1 loss mask with a masked prefix and a masked hole in the middle; never fully masked. */
export function maskWithHoles(random: () => number, n: number): number[] {
  const mask = new Array<number>(n).fill(1);
  const prefix = Math.floor(random() * Math.min(5, n / 4));
  const holeStart = prefix + Math.floor(random() * (n / 2));
  const holeEnd = Math.min(n - 1, holeStart + 1 + Math.floor(random() * (n / 4)));
  for (let t = 0; t < n; t++) if (t < prefix || (t >= holeStart && t < holeEnd)) mask[t] = 0;
  mask[n - 1] = n > 1 && random() < 0.5 ? 0 : 1;
  if (!mask.includes(1)) mask[0] = 1;
  return mask;
}

/** The README's float32 rule `2e-6·scale·max(1, √T/16)`, scale = largest |input or expected|. */
export function float32Tolerance(longestRow: number, ...arrays: ArrayLike<number>[]): number {
  const scale = Math.max(0, ...arrays.map(maxAbs));
  return 2e-6 * scale * Math.max(1, Math.sqrt(longestRow) / 16);
}

/** Ragged rows laid end to end, for comparing a REINFORCE++ batch in one go. */
export function flat(rows: ArrayLike<number>[]): Float64Array {
  return Float64Array.from(rows.flatMap((row) => Array.from(row)));
}
