/**
 * The heatmap's pictures of the playground worker's newest result: its tables are transferred to
 * the page, so copies of the three the heatmap measures (the reference, the chunked side and the
 * bound) stay here, with the loss mask the page sent with the run. Only the newest result is kept:
 * a picture of another one answers null. A worker ended by a cancel takes its copies with it; the
 * page then sends the output it still shows to the next worker (`restore`).
 */
import * as Comlink from "comlink";
import type { FloatArray } from "../../core";
import {
  BatchPictures,
  type PictureAsk,
  type PooledPicture,
  pictureBuffers,
  type SentPicture,
} from "../heatmap/picture";
import { type CellErrors, emptyCellErrors } from "./cellErrors";
import type { OutputName, OutputTables } from "./outputTables";
import type { ResultTables } from "./playgroundRun";

/** What the heatmap's pictures of a result are pooled from. */
export type KeptTables = Pick<ResultTables, "reference" | "chunked" | "bound"> & {
  rows: number;
  cols: number;
  lengths: number[];
};

/** One output of a result, as the page sends it back to a new worker. */
export interface RestoredOutput {
  rows: number;
  cols: number;
  lengths: number[];
  reference: Float64Array;
  actual: FloatArray;
  bound?: Float64Array;
}

interface Kept extends KeptTables {
  id: number;
  lossMask?: Uint8Array;
  outputs: Map<OutputName, BatchPictures>;
}

/** The kept result of one worker, and the page's last ask of it. */
export class ResultPictures {
  private kept: Kept | null = null;
  /** The page's last ask: the next result's picture for it is pooled with the result and sent along. */
  private lastAsk: { output: OutputName; ask: PictureAsk } | null = null;
  /**
   * The tables of the result kept before the newest, which nothing reads any more: the next copies
   * are written into them. A fresh array per table and edit (1 MB each at 16 × 8192) cost the worker
   * its allocation and garbage collection after the engine's answer.
   */
  private spare: FloatArray[] = [];
  /** The measured cells of the result kept before the newest (as `spare`): the next ready arrays reuse them. */
  private spareErrors: CellErrors | undefined;
  /**
   * The cell measure of the next result's expected picture, made ready before the engine answers
   * (prepareMeasure): zeroed arrays and the floor of its reference (the copy this worker will keep).
   */
  private ready: {
    reference: Float64Array;
    output: OutputName;
    precision: PictureAsk["precision"];
    errors: CellErrors;
  } | null = null;

  /** Copies of a result's tables, for this worker to keep while it transfers the originals. */
  copies<A extends FloatArray>(tables: OutputTables<A>): OutputTables<A> {
    const out: OutputTables<A> = {};
    for (const [name, a] of Object.entries(tables) as [OutputName, A | undefined][]) {
      if (!a) continue;
      const i = this.spare.findIndex((s) => s.constructor === a.constructor && s.length === a.length);
      const into = i >= 0 ? (this.spare.splice(i, 1)[0] as A) : null;
      if (into) into.set(a);
      out[name] = into ?? (a.slice() as A);
    }
    return out;
  }

  /**
   * Keeps a result's tables for its pictures: copies where the originals are about to be
   * transferred (`copied` false), the tables themselves where they are this worker's own already.
   * The tables kept before become the spare ones.
   */
  keep(id: number, result: KeptTables, lossMask?: Uint8Array, copied = false): void {
    const before = this.kept;
    this.kept = null;
    this.spare = [];
    if (before) {
      for (const tables of [before.reference, before.chunked, before.bound])
        for (const a of Object.values(tables)) if (a) this.spare.push(a);
      for (const pictures of before.outputs.values()) this.spareErrors = pictures.measuredErrors ?? this.spareErrors;
    }
    const { rows, cols, lengths } = result;
    const own = <A extends FloatArray>(tables: OutputTables<A>) => (copied ? tables : this.copies(tables));
    this.kept = {
      id,
      rows,
      cols,
      lengths,
      reference: own(result.reference),
      chunked: own(result.chunked),
      bound: own(result.bound),
      lossMask: lossMask && lossMask.length === rows * cols ? lossMask : undefined,
      outputs: new Map(),
    };
  }

  /**
   * Before the actual side of a result is known: the arrays its expected picture's cells are measured
   * into, zeroed, and the floor of `reference` (the copies this worker will keep), so that neither is
   * left for after the engine's answer. Nothing before the page's first ask.
   */
  prepareMeasure(reference: OutputTables<Float64Array>, cells: number): void {
    const { lastAsk } = this;
    const table = lastAsk && reference[lastAsk.output];
    const reuse = this.ready?.errors ?? this.spareErrors;
    this.ready = null;
    this.spareErrors = undefined;
    if (!lastAsk || !table) return;
    const errors = emptyCellErrors(table, cells, lastAsk.ask.precision, reuse);
    this.ready = { reference: table, output: lastAsk.output, precision: lastAsk.ask.precision, errors };
  }

  /**
   * Keeps one output of result `id` as the page sent it back (this worker's own copies), beside the
   * outputs of `id` restored before: the page shows it still, and the worker that computed it was ended.
   */
  restore(id: number, output: OutputName, tables: RestoredOutput, lossMask?: Uint8Array): void {
    const { rows, cols, lengths } = tables;
    if (this.kept?.id !== id)
      this.keep(id, { rows, cols, lengths, reference: {}, chunked: {}, bound: {} }, lossMask, true);
    const kept = this.kept as Kept;
    kept.reference[output] = tables.reference;
    kept.chunked[output] = tables.actual;
    kept.bound[output] = tables.bound;
    kept.outputs.delete(output);
  }

  /** The pooled picture of output `output` of result `id`, transferred; null when another result is kept. */
  picture(id: number, output: OutputName, ask: PictureAsk): PooledPicture | null {
    this.lastAsk = { output, ask };
    const picture = this.pictureOf(id, output, ask);
    return picture && Comlink.transfer(picture, pictureBuffers(picture));
  }

  /**
   * The kept result's picture for the page's last ask, to send with the result (not transferred: the
   * caller adds its buffers to the result's): the heatmap then draws it in the commit that brings the
   * result, with no round trip. Null before the page has asked for any.
   */
  expected(): SentPicture<OutputName> | null {
    const { kept, lastAsk } = this;
    if (!kept || !lastAsk) return null;
    const picture = this.pictureOf(kept.id, lastAsk.output, lastAsk.ask);
    return picture && { ...lastAsk, picture };
  }

  private pictureOf(id: number, output: OutputName, ask: PictureAsk): PooledPicture | null {
    const { kept } = this;
    if (!kept || kept.id !== id) return null;
    const reference = kept.reference[output];
    const actual = kept.chunked[output];
    if (!reference || !actual) return null;
    let pictures = kept.outputs.get(output);
    if (!pictures) {
      const { ready } = this;
      const fits = ready?.reference === reference && ready.output === output;
      if (fits) this.ready = null;
      pictures = new BatchPictures(
        {
          rows: kept.rows,
          cols: kept.cols,
          lengths: kept.lengths,
          reference,
          actual,
          bound: kept.bound[output],
          lossMask: kept.lossMask,
        },
        fits ? ready : undefined,
      );
      kept.outputs.set(output, pictures);
    }
    return pictures.picture(ask);
  }
}
