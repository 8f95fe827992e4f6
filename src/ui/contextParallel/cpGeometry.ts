import { interpolateCividis } from "d3-scale-chromatic";
import type { CpLayout } from "../../core";

/**
 * Rank colours: cividis (made for colour-vision deficiency) at evenly spaced points, dark to light,
 * so neighbouring ranks differ in lightness; every chunk also carries its rank's label.
 */
export function rankColor(rank: number, cpSize: number): string {
  const t = cpSize === 1 ? 0.35 : 0.02 + (0.96 * rank) / (cpSize - 1);
  return interpolateCividis(t);
}

/** Black or white, whichever reads better on the colour ("rgb(r, g, b)" as d3 writes it). */
export function labelColor(background: string): string {
  const [r, g, b] = (background.match(/\d+/g) ?? ["0", "0", "0"]).map(Number);
  const linear = (c: number) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
  return luminance > 0.22 ? "#111827" : "#ffffff";
}

export interface StripChunk {
  chunk: number;
  rank: number;
  x: number;
  width: number;
  /** Positions [start, end) of the padded sample. */
  start: number;
  end: number;
}

export interface StripRegion {
  kind: "prompt" | "response" | "padding";
  x: number;
  width: number;
  start: number;
  end: number;
}

export interface StripGeometry {
  chunks: StripChunk[];
  regions: StripRegion[];
  /** The response's logits [P − 1, T − 1) on the same axis. */
  logits: { x: number; width: number };
}

/** The whole padded sample on `width` pixels: the 2n chunks, and prompt, response and padding. */
export function stripGeometry(layout: CpLayout, width: number): StripGeometry {
  const scale = width / layout.paddedLength;
  const n = layout.cpSize;
  const at = (start: number, end: number) => ({ x: start * scale, width: (end - start) * scale, start, end });
  const chunks = Array.from({ length: 2 * n }, (_, k) => ({
    chunk: k,
    rank: Math.min(k, 2 * n - 1 - k),
    ...at(k * layout.chunkLength, (k + 1) * layout.chunkLength),
  }));
  const P = layout.promptLength;
  const T = layout.totalLength;
  const regions: StripRegion[] = [
    { kind: "prompt" as const, ...at(0, P) },
    { kind: "response" as const, ...at(P, T) },
    { kind: "padding" as const, ...at(T, layout.paddedLength) },
  ].filter((r) => r.end > r.start);
  const logits = at(P - 1, T - 1);
  return { chunks, regions, logits: { x: logits.x, width: logits.width } };
}

/**
 * An SVG path of `values[from..to)` drawn over [x0, x1] as steps: each pixel column (or each token,
 * where tokens are fewer than pixels) a level at its maximum and a stroke down to its minimum, so no
 * spike is lost however many tokens share a pixel, and a single token is still a visible level.
 */
export function envelopePath(
  values: ArrayLike<number>,
  from: number,
  to: number,
  x0: number,
  x1: number,
  y: (v: number) => number,
): string {
  const count = to - from;
  if (count <= 0) return "";
  const columns = Math.max(1, Math.min(count, Math.round(x1 - x0)));
  const step = (x1 - x0) / columns;
  const parts: string[] = [];
  for (let c = 0; c < columns; c++) {
    // columns ≤ count, so every column has at least one token.
    const a = from + Math.floor((c * count) / columns);
    const b = from + Math.floor(((c + 1) * count) / columns);
    let lo = Number.POSITIVE_INFINITY;
    let hi = Number.NEGATIVE_INFINITY;
    for (let t = a; t < b; t++) {
      lo = Math.min(lo, values[t]);
      hi = Math.max(hi, values[t]);
    }
    const left = x0 + c * step;
    parts.push(`${c === 0 ? "M" : "L"}${left.toFixed(1)},${y(hi).toFixed(1)}`);
    if (step >= 2) parts.push(`L${(left + step).toFixed(1)},${y(hi).toFixed(1)}`);
    if (lo !== hi) parts.push(`L${(left + Math.min(step, 1)).toFixed(1)},${y(lo).toFixed(1)}`);
  }
  return parts.join("");
}

/** A y scale over the values' range (0 always inside), top padding included; NaN/∞ ignored. */
export function valueScale(arrays: ArrayLike<number>[], top: number, bottom: number): (v: number) => number {
  let lo = 0;
  let hi = 0;
  for (const values of arrays) {
    for (let t = 0; t < values.length; t++) {
      const v = values[t];
      if (!Number.isFinite(v)) continue;
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
  }
  if (hi === lo) hi = lo + 1;
  return (v) => bottom - ((Math.min(Math.max(v, lo), hi) - lo) / (hi - lo)) * (bottom - top);
}
