import { absError, relError, relFloor, ulpDistance } from "../../heatmap/cellErrors";
import type { OutputName, OutputTables } from "./outputTables";

/** The whole batch's error, chunked against the float64 serial reference, over every output. */
export interface ErrorSummary {
  maxAbs: number;
  maxRel: number;
  /** Largest distance in ulps of the chunked side's precision. */
  maxUlps: number;
  /** Cells over their per-element bound; null when no bound was given. */
  overBound: number | null;
  /** Cells compared (valid tokens × outputs), non-finite ones included. */
  cells: number;
  /**
   * Cells where the chunked side, or the float64 serial reference, is NaN or ±Inf. They are left
   * out of the figures above (a NaN max error says nothing) and counted here instead, so a broken
   * result never looks small: with finite inputs any count here is a fault.
   */
  nonFinite: { chunked: number; serial: number };
  /** Where the largest absolute error is (first one on ties); null when no cell was compared. */
  worst: { output: OutputName; row: number; token: number } | null;
}

export interface SummaryInput {
  rows: number;
  cols: number;
  lengths: ArrayLike<number>;
  reference: OutputTables<Float64Array>;
  chunked: OutputTables;
  /** Per-element allowed |chunked − reference|, shaped like the tables. */
  bound?: OutputTables<Float64Array>;
  precision: "float32" | "float64";
}

const bits32 = new Float32Array(2);
const ints32 = new Int32Array(bits32.buffer);

/** ulps between two finite float32 values (the fast path of cellErrors' ulpDistance). */
function ulps32(a: number, b: number): number {
  bits32[0] = a;
  bits32[1] = b;
  const x = ints32[0] < 0 ? -(ints32[0] & 0x7fffffff) : ints32[0];
  const y = ints32[1] < 0 ? -(ints32[1] & 0x7fffffff) : ints32[1];
  return Math.abs(x - y);
}

/**
 * Max abs, rel and ulp error over every valid token of every output (padding is not data), and
 * the count over the bound, gathered a slice of rows at a time so that the page can breathe
 * between slices at 16 × 8192. Cells where either side is NaN or ±Inf are counted apart, not measured.
 */
export class ErrorAccumulator {
  private maxAbs = 0;
  private maxRel = 0;
  private maxUlps = 0;
  private overBound = 0;
  private cells = 0;
  private nonFiniteChunked = 0;
  private nonFiniteSerial = 0;
  private worst: ErrorSummary["worst"] = null;
  private readonly floors = new Map<OutputName, number>();

  constructor(private readonly input: SummaryInput) {}

  /** The outputs present in both the reference and the chunked side, in order. */
  get outputs(): OutputName[] {
    const { reference, chunked } = this.input;
    return (Object.keys(reference) as OutputName[]).filter((name) => reference[name] && chunked[name]);
  }

  /** Adds rows [r0, r1) of one output. */
  add(name: OutputName, r0: number, r1: number): void {
    const { cols, lengths, precision } = this.input;
    const ref = this.input.reference[name] as Float64Array;
    const act = this.input.chunked[name] as ArrayLike<number>;
    const limit = this.input.bound?.[name];
    let floor = this.floors.get(name);
    if (floor === undefined) {
      floor = relFloor(ref, precision);
      this.floors.set(name, floor);
    }
    const f32 = precision === "float32";
    for (let r = r0; r < r1; r++) {
      const length = Math.min(cols, lengths[r]);
      for (let t = 0; t < length; t++) {
        const i = r * cols + t;
        const a = act[i];
        const e = ref[i];
        this.cells++;
        if (!Number.isFinite(a) || !Number.isFinite(e)) {
          if (!Number.isFinite(a)) this.nonFiniteChunked++;
          if (!Number.isFinite(e)) this.nonFiniteSerial++;
          continue;
        }
        let abs = Math.abs(a - e);
        let rel: number;
        let ulps: number;
        if (abs <= Number.MAX_VALUE) {
          rel = abs === 0 ? 0 : abs / Math.max(Math.abs(e), floor);
          ulps = abs === 0 ? 0 : f32 && Number.isFinite(Math.fround(e)) ? ulps32(a, e) : ulpDistance(e, a, precision);
        } else {
          // NaN or infinity somewhere: the careful versions decide (equal infinities are 0 apart).
          abs = absError(e, a);
          rel = relError(e, a, floor);
          ulps = ulpDistance(e, a, precision);
        }
        if (!(abs <= this.maxAbs) && !Number.isNaN(this.maxAbs)) {
          this.maxAbs = abs;
          this.worst = { output: name, row: r, token: t };
        }
        if (!(rel <= this.maxRel) && !Number.isNaN(this.maxRel)) this.maxRel = rel;
        if (!(ulps <= this.maxUlps) && !Number.isNaN(this.maxUlps)) this.maxUlps = ulps;
        if (limit && !(abs <= limit[i])) this.overBound++;
      }
    }
  }

  summary(): ErrorSummary {
    const { maxAbs, maxRel, maxUlps, cells } = this;
    return {
      maxAbs,
      maxRel,
      maxUlps,
      overBound: this.input.bound ? this.overBound : null,
      cells,
      nonFinite: { chunked: this.nonFiniteChunked, serial: this.nonFiniteSerial },
      worst: cells === 0 ? null : this.worst,
    };
  }
}

/** The summary in one go (tests, small batches). */
export function summarizeErrors(input: SummaryInput): ErrorSummary {
  const accumulator = new ErrorAccumulator(input);
  for (const name of accumulator.outputs) accumulator.add(name, 0, input.rows);
  return accumulator.summary();
}
