import { formatShort, formatValue } from "../../io/formatNumber";
import { errorSummary } from "./errorSummary";
import { carryTerm, localIndex, type Replay, tokenOf } from "./replay";
import { type PlayerTrace, type Step, validInChunk } from "./trace";

export const f32 = (x: number) => formatValue(x, "float32");
export const f64 = (x: number) => formatValue(x, "float64");

/** A float32 value as an operand: negative ones in parentheses, so "a − (−b)" never reads "a − -b". */
export const operand32 = (x: number) => (x < 0 || Object.is(x, -0) ? `(${f32(x)})` : f32(x));

/** A value's full-precision text for `data-value`: the shortest round-trip form, and "-0" for negative zero. */
export const dataValue = (x: number) => (Object.is(x, -0) ? "-0" : String(x));

/** Original-time token range of chunk c, first to last in scan order ("t = 39…32"). */
export function chunkSpan(r: Replay, c: number): string {
  const first = tokenOf(r, c * r.chunkSize);
  const last = Math.max(0, tokenOf(r, c * r.chunkSize + validInChunk(r, c) - 1));
  return first === last ? `t = ${first}` : `t = ${first}…${last}`;
}

/** Symbol of the scan's output: G (returns) or A (GAE advantages). */
export function outputSymbol(r: Replay): "G" | "A" {
  return r.kind === "gae" ? "A" : "G";
}

function discountName(r: Replay): string {
  return r.kind === "gae" ? "γλ" : "γ";
}

/** One sentence per step, with the focus row's real numbers (float32 to 9 digits, float64 to 17). */
export function stepCaption(trace: PlayerTrace, step: Step, b: number): string {
  const r = trace.replay;
  const { cols, chunkSize: C, nChunks, pad } = r;
  const row = r.rows > 1 ? ` (row ${b})` : "";
  const G = outputSymbol(r);
  const d = discountName(r);
  switch (step.kind) {
    case "kl-penalty": {
      const beta = r.reinforce?.klCoef ?? 0;
      return `Token rewards, part 1: every token gets the KL penalty −β·kl_t·mask_t with β = ${beta}; masked tokens (mask 0) get 0.`;
    }
    case "outcome": {
      const x = r.reinforce;
      if (!x) return "";
      const t = x.lastUnmasked[b];
      return `Token rewards, part 2: the outcome reward ${f32(x.outcomes[b])} is added at the last unmasked token${row}, t = ${t}, giving ${f32(r.scanned[b * cols + t])}.`;
    }
    case "pad-batch": {
      const shortRows = r.lengths.filter((L) => L < cols).length;
      return `Right-pad the ragged batch with zeros to [B, max L] = [${r.rows}, ${cols}]: ${shortRows} of ${r.rows} rows are shorter than the longest one. One scan then runs over the whole batch.`;
    }
    case "residuals": {
      const x = r.gae;
      if (!x) return "";
      const t = cols - 1;
      const j = b * cols + t;
      return `TD residuals δ_t = r_t + γ·V_(t+1) − V_t with V_T = 0, in float32; at the last token${row}: δ_${t} = ${f32(x.rewards[j])} + ${x.gamma}·0 − ${operand32(x.values[j])} = ${f32(r.scanned[j])}.`;
    }
    case "discount": {
      const x = r.gae;
      if (!x) return "";
      return `GAE scans the residuals with the discount γλ = ${x.gamma}·${x.lambd} = ${f64(r.discount)}, taken as one float64 product and rounded to float32 (${f32(Math.fround(r.discount))}) inside the powers.`;
    }
    case "reverse":
      return `Reverse time: x_i = ${r.kind === "gae" ? "δ" : "r"}_(T−1−i), so the backward recursion ${G}_t = x_t + ${d}·${G}_(t+1) becomes a forward scan that starts at the last token, t = ${cols - 1}.`;
    case "pad":
      return pad === 0
        ? `No padding: T = ${cols} is a multiple of C = ${C}, so the rows split into ${nChunks} chunks of ${C} tokens.`
        : `Pad each reversed row with ${pad} zero${pad === 1 ? "" : "s"} so that ${cols} + ${pad} = ${cols + pad} tokens fill ${nChunks} chunks of C = ${C}; in original time the zeros sit before t = 0 and never reach a real output.`;
    case "local": {
      const i = step.chunk * C + step.k;
      const value = r.localScans[localIndex(r, b, i)];
      if (trace.granularity === "chunk") {
        return `Chunk ${step.chunk} (${chunkSpan(r, step.chunk)}): its ${validInChunk(r, step.chunk)} local sums, one row of the matrix product x_chunk·M each, with no carry; the last one${row} is ${f32(value)}.`;
      }
      const t = tokenOf(r, i);
      const top = tokenOf(r, step.chunk * C);
      const tokens = top === t ? `token t = ${t}` : `tokens t = ${top}…${t}`;
      const carryNote =
        step.chunk === 0
          ? " Chunk 0 ends the sequence, so nothing is missing: this is already final."
          : " No carry yet.";
      return `Chunk ${step.chunk}, k = ${step.k} (t = ${t}): the local sum adds the chunk's ${tokens}, each times ${d}^(t′−${t}): ${f32(value)}${row}.${carryNote}`;
    }
    case "chunk-end": {
      const value = r.localScans[localIndex(r, b, step.chunk * C + step.k)];
      return `Chunk ${step.chunk} is scanned (${chunkSpan(r, step.chunk)}). Its last local sum, ${f32(value)}${row}, is everything this chunk's own tokens add up to; every chunk's local scan is independent, so the GPU does them all in one matrix product.`;
    }
    case "carry": {
      const c = step.chunk;
      if (c === 0) {
        return `Chunk 0 (${chunkSpan(r, 0)}) has no later tokens: its carry is 0, so its local sums are already the final ${G}_t.`;
      }
      const carry = r.carriesIn[b * nChunks + c];
      const last = validInChunk(r, c) - 1;
      const first = r.combined[b * cols + tokenOf(r, c * C)];
      return `Carry into chunk ${c}: s_${c} = ${G}_${tokenOf(r, c * C - 1)} = ${f32(carry)}${row}, the last value of chunk ${c - 1}. Position k adds s_${c}·${d}^(k+1): ${f32(carryTerm(r, b, c, 0))} at k = 0 (so ${G}_${tokenOf(r, c * C)} = ${f32(first)}) down to ${f32(carryTerm(r, b, c, last))} at k = ${last}.`;
    }
    case "combine":
      return `Un-pad and reverse back: the chunked ${r.kind === "gae" ? "advantages A_t" : "returns G_t"} of every row in original time, as the engine computed them on ${r.backend}.`;
    case "gae-returns": {
      const x = r.gae;
      if (!x) return "";
      const j = b * cols;
      return `GAE's returns are R_t = A_t + V_t, one float32 addition per token; at t = 0${row}: ${f32(r.engineOut[j])} + ${operand32(x.values[j])} = ${f32(x.returns[j])}.`;
    }
    case "trim": {
      const cut = r.lengths.reduce((sum, L) => sum + (cols - L), 0);
      return `Trim every row back to its own length L_i (${r.lengths.join(", ")}): the ${cut} padded positions are dropped. Their returns were exactly 0, since only zeros follow them.`;
    }
    case "compare": {
      const s = errorSummary(r);
      const ratio = `worst error / bound ${formatShort(s.maxRatio)}`;
      const nonFiniteOver =
        s.nonFiniteOver > 0
          ? `, ${s.nonFiniteOver} of them NaN or ±Inf where the float64 reference is finite, which is over any bound`
          : "";
      const verdict =
        s.cells === 0
          ? "no cell has a finite reference to be measured against"
          : s.overBound === 0
            ? `all ${s.cells} measured cells are within their error bound (${ratio})`
            : `${s.overBound} of ${s.cells} measured cells are over their error bound (${ratio}${nonFiniteOver})`;
      const lost =
        s.nonFinite > 0
          ? ` ${s.nonFinite} cells where the float64 reference itself is NaN or ±Inf are left out: they have no error to measure.`
          : "";
      return `Compare with the float64 serial loop, cell by cell: max abs error ${formatShort(s.maxAbs)}; ${verdict}.${lost}`;
    }
  }
}
