import { formatShort } from "../../io/formatNumber";
import { f32, f64, outputSymbol } from "./captions";
import { carryTerm, kernelEntry, localIndex, type Replay, reversedOf } from "./replay";

/**
 * The arithmetic behind one output, with the real numbers: the local sum, the carry times its
 * power of the discount, the serial value it must equal, and the difference. `tex` holds only
 * numbers formatted here and fixed symbols, never text from a file.
 */
export interface Derivation {
  b: number;
  t: number;
  chunk: number;
  k: number;
  local: number;
  carry: number;
  power: number;
  /** `fl32(carry · power)` and `fl32(local + that)`: the engine's two roundings. */
  carryTerm: number;
  value: number;
  serial: number;
  difference: number;
  bound: number;
  /** Lines of TeX, one display each: the formula, the numbers (two lines), the serial value, the difference. */
  tex: string[];
}

export function derivation(r: Replay, b: number, t: number): Derivation {
  const i = reversedOf(r, t);
  const C = r.chunkSize;
  const chunk = Math.floor(i / C);
  const k = i - chunk * C;
  const j = b * r.cols + t;
  const local = r.localScans[localIndex(r, b, i)];
  const carry = r.carriesIn[b * r.nChunks + chunk];
  const power = r.carryPowers[k];
  const term = carryTerm(r, b, chunk, k);
  const value = r.engineOut[j];
  const serial = r.serial[j];
  const difference = value - serial;
  const bound = r.bound[j];
  const G = outputSymbol(r);
  const d = r.kind === "gae" ? "(\\gamma\\lambda)" : "\\gamma";
  const x = r.kind === "gae" ? "\\delta" : "r";
  // The chunk's tokens in original time: from t up to the chunk's last token (its first in scan order).
  const top = r.cols - 1 - chunk * C;
  const tex = [
    `${G}_{${t}} = \\underbrace{\\textstyle\\sum_{t'=${t}}^{${top}} ${d}^{t'-${t}}\\, ${x}_{t'}}_{\\text{local sum, chunk } ${chunk}} + \\underbrace{s_{${chunk}}}_{\\text{carry}}\\cdot ${d}^{${k + 1}}`,
    `= ${num(f32(local))} + ${paren(f32(carry))} \\cdot ${paren(f32(power))}`,
    `= ${num(f32(local))} + ${paren(f32(term))} = ${num(f32(value))}`,
    `${G}^{\\text{serial}}_{${t}} = \\textstyle\\sum_{t' \\ge ${t}} ${d}^{t'-${t}}\\, ${x}_{t'} = ${num(f64(serial))}`,
    `${G}_{${t}} - ${G}^{\\text{serial}}_{${t}} = ${num(formatShort(difference))} \\quad (|\\cdot| ${Math.abs(difference) <= bound ? "\\le" : ">"} \\text{bound } ${num(formatShort(bound))})`,
  ];
  return { b, t, chunk, k, local, carry, power, carryTerm: term, value, serial, difference, bound, tex };
}

/** The local sum at reversed position (chunk, k) written out term by term (long sums elided in the middle). */
export function localSumTex(r: Replay, b: number, chunk: number, k: number): string {
  const C = r.chunkSize;
  const d = r.kind === "gae" ? "(\\gamma\\lambda)" : "\\gamma";
  const x = r.kind === "gae" ? "\\delta" : "r";
  const t = r.cols - 1 - (chunk * C + k);
  const terms: string[] = [];
  const numbers: string[] = [];
  const shown = k <= 4 ? [...Array(k + 1).keys()] : [0, 1, -1, k - 1, k];
  for (const l of shown) {
    if (l < 0) {
      terms.push("\\cdots");
      numbers.push("\\cdots");
      continue;
    }
    // In original time: token t′ = t + (k − l), discounted by d^(t′ − t).
    const i = chunk * C + l;
    const xv = i < r.cols ? r.scanned[b * r.cols + (r.cols - 1 - i)] : 0;
    terms.push(`${x}_{${t + k - l}}${d}^{${k - l}}`);
    numbers.push(`${paren(f32(xv))}\\cdot${paren(f32(kernelEntry(r, l, k)))}`);
  }
  const sum = r.localScans[localIndex(r, b, chunk * C + k)];
  return `S^{\\text{local}}_{${t}} = ${terms.join(" + ")} = ${numbers.join(" + ")} = ${num(f32(sum))}`;
}

/** An input cell: its value, where the scan reads it (reversed position, chunk, k), and for GAE its residual. */
export function inputTex(r: Replay, b: number, t: number): string[] {
  const i = reversedOf(r, t);
  const chunk = Math.floor(i / r.chunkSize);
  const j = b * r.cols + t;
  const value = num(f32(r.scanned[j]));
  if (r.gae) {
    const next = t + 1 < r.cols ? r.gae.values[j + 1] : 0;
    return [
      `\\delta_{${t}} = r_{${t}} + \\gamma\\, V_{${t + 1}} - V_{${t}}`,
      `= ${paren(f32(r.gae.rewards[j]))} + ${num(String(r.gae.gamma))}\\cdot ${paren(f32(next))} - ${paren(f32(r.gae.values[j]))} = ${value}`,
      `x_{${i}} = \\delta_{${t}} \\quad (\\text{chunk } ${chunk},\\ k = ${i - chunk * r.chunkSize})`,
    ];
  }
  return [
    `r_{${t}} = ${value}`,
    `x_{${i}} = r_{${t}} \\quad (\\text{chunk } ${chunk},\\ k = ${i - chunk * r.chunkSize})`,
  ];
}

/** A serial cell: one step of the float64 loop, G_t = x_t + d·G_(t+1), with its numbers. */
export function serialTex(r: Replay, b: number, t: number): string[] {
  const G = outputSymbol(r);
  const d = r.kind === "gae" ? "(\\gamma\\lambda)" : "\\gamma";
  const x = r.kind === "gae" ? "\\delta" : "r";
  const j = b * r.cols + t;
  const next = t + 1 < r.cols ? r.serial[j + 1] : 0;
  return [
    `${G}^{\\text{serial}}_{${t}} = ${x}_{${t}} + ${d}\\, ${G}^{\\text{serial}}_{${t + 1}}`,
    `= ${paren(f64(r.scanned64[j]))} + ${paren(f64(r.discount))} \\cdot ${paren(f64(next))}`,
    `= ${num(f64(r.serial[j]))}`,
  ];
}

/** A formatted number as TeX: `1.5e-7` becomes `1.5\times10^{-7}`. */
export function num(text: string): string {
  const m = /^(-?[\d.]+)e([+-]?\d+)$/.exec(text);
  if (!m) return text;
  return `${m[1]}\\times10^{${Number(m[2])}}`;
}

function paren(text: string): string {
  return text.startsWith("-") ? `(${num(text)})` : num(text);
}
