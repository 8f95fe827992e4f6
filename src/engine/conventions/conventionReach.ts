import { cutSegments, nextUnmaskedIndex, segmentWidth, unmaskedPositions } from "../../core";
import type { Strategy } from "../../names/strategies";
import { nonFiniteReach } from "../outputCheck";
import type { PreparedConvention } from "./prepareConvention";

/**
 * Where a convention's NaN and ±Inf inputs can reach its outputs on the engine, per sequence and
 * token, with the chosen strategy: the tokens checkConventionOutputs leaves unjudged. Each library
 * scans its own inputs in its own layout, so each spreads them its own way (outputCheck.ts's
 * nonFiniteReach for one plain scan, ALGORITHM.md §b.4):
 * - slime and OpenRLHF: one scan over the right-padded row of token rewards (OpenRLHF's multiplied
 *   by the mask first, and NaN·0 is still NaN), GAE over its TD residuals;
 * - verl REINFORCE++: every cut segment scanned on its own, left-padded to its width, so a NaN
 *   stays inside its segment (verl's own loop multiplies the carry by the mask, NaN·0 = NaN, and
 *   carries it across the hole: core's reference does too, the engine's cut does not);
 * - verl GAE: the scan over the mask-1 tokens laid side by side; a mask-0 token shows the
 *   advantage of the next mask-1 token, and its own value only in its return;
 * - whitening takes its mean over the whole batch, and `a·m` keeps a NaN at a mask-0 token: one
 *   advantage that may be non-finite may make every whitened advantage of the batch non-finite.
 */
export interface ConventionReach {
  /** Per sequence, 1 where the advantages before whitening may be non-finite. */
  advantages: Uint8Array[];
  /** Per sequence, 1 where the returns may be non-finite. */
  returns: Uint8Array[];
  /** Some advantage may be non-finite before whitening: every whitened one may be. */
  whitening: boolean;
  /** Any token reached at all. */
  any: boolean;
}

export function conventionReach(p: PreparedConvention, strategy: Strategy): ConventionReach {
  const advantages = p.tokens.map((row) => new Uint8Array(row.length));
  const returns = p.tokens.map((row) => new Uint8Array(row.length));
  const masked = p.library === "openrlhf";
  p.tokens.forEach((tok, b) => {
    const m = p.masks[b];
    const L = tok.length;
    const reached = advantages[b];
    if (p.estimator === "reinforce_pp") {
      if (p.library === "verl") {
        for (const { start, length } of cutSegments([m])) {
          // The segment alone, left-padded to its width: its last token ends the row.
          const width = segmentWidth(length);
          const row = new Float32Array(width);
          row.set(tok.subarray(start, start + length), width - length);
          const last = nonFiniteReach(row, width, p.chunkSize, strategy) - (width - length);
          for (let j = 0; j <= Math.min(last, length - 1); j++) reached[start + j] = 1;
        }
      } else {
        const x = masked ? tok.map((v, t) => v * m[t]) : tok;
        reached.fill(1, 0, Math.min(L, nonFiniteReach(x, p.cols, p.chunkSize, strategy) + 1));
      }
      returns[b].set(reached);
      return;
    }
    const v = p.values?.[b] ?? new Float32Array(L);
    if (p.library === "verl") {
      const positions = unmaskedPositions(m);
      const deltas = residuals(
        positions.map((t) => tok[t]),
        positions.map((t) => v[t]),
        p.gamma,
      );
      const width = p.tokens.reduce((most, row, i) => Math.max(most, countOnes(p.masks[i], row.length)), 0);
      const last = nonFiniteReach(deltas, width, p.chunkSize, strategy);
      nextUnmaskedIndex(m).forEach((j, t) => {
        if (j >= 0 && j <= last) reached[t] = 1;
      });
    } else {
      const r = masked ? Array.from(tok, (x, t) => x * m[t]) : Array.from(tok);
      const values = masked ? Array.from(v, (x, t) => x * m[t]) : Array.from(v);
      const last = nonFiniteReach(residuals(r, values, p.gamma), p.cols, p.chunkSize, strategy);
      reached.fill(1, 0, Math.min(L, last + 1));
    }
    // returns = A + V (OpenRLHF: A + m·V): a token's own non-finite value reaches its return only.
    for (let t = 0; t < L; t++) returns[b][t] = reached[t] || !Number.isFinite(v[t]) ? 1 : 0;
  });
  const any = advantages.some((row) => row.includes(1)) || returns.some((row) => row.includes(1));
  const whitening = p.normalize && advantages.some((row) => row.includes(1));
  return { advantages, returns, whitening, any };
}

/** δ_t = r_t + γ·V_{t+1} − V_t with V_T = 0, in float64: non-finite exactly where the engine's may be. */
function residuals(r: number[], v: number[], gamma: number): Float64Array {
  const g = Math.fround(gamma);
  return Float64Array.from(r, (x, t) => x + g * (t + 1 < v.length ? v[t + 1] : 0) - v[t]);
}

function countOnes(mask: ArrayLike<number>, length: number): number {
  let n = 0;
  for (let t = 0; t < length; t++) n += mask[t];
  return n;
}
