/**
 * The heatmap's pictures of the playground worker's newest result: its tables are transferred to
 * the page, so copies of the three the heatmap measures (the reference, the chunked side and the
 * bound) stay here, with the loss mask the page sent with the run. Only the newest result is kept:
 * a picture of an older one answers null (the page shows the newer result's soon).
 */
import * as Comlink from "comlink";
import {
  BatchPictures,
  type PictureAsk,
  type PooledPicture,
  pictureBuffers,
  type SentPicture,
} from "../heatmap/picture";
import type { OutputName, OutputTables } from "./outputTables";
import type { ComputedResult } from "./playgroundRun";

interface Kept {
  id: number;
  rows: number;
  cols: number;
  lengths: number[];
  reference: OutputTables;
  chunked: OutputTables;
  bound: OutputTables;
  lossMask?: Uint8Array;
  outputs: Map<OutputName, BatchPictures>;
}

let kept: Kept | null = null;
/** The page's last ask: the next result's picture for it is pooled with the result and sent along. */
let lastAsk: { output: OutputName; ask: PictureAsk } | null = null;

function copy(tables: OutputTables): OutputTables {
  const out: OutputTables = {};
  for (const [name, a] of Object.entries(tables) as [OutputName, OutputTables[OutputName]][]) out[name] = a?.slice();
  return out;
}

/** Keeps copies of a result's tables for its pictures (the originals are about to be transferred). */
export function keepResult(id: number, result: ComputedResult, lossMask?: Uint8Array): void {
  kept = null; // the older copies go before the new ones are made
  const { rows, cols, lengths } = result;
  kept = {
    id,
    rows,
    cols,
    lengths,
    reference: copy(result.reference),
    chunked: copy(result.chunked),
    bound: copy(result.bound),
    lossMask: lossMask && lossMask.length === rows * cols ? lossMask : undefined,
    outputs: new Map(),
  };
}

/** The pooled picture of output `output` of result `id`, transferred; null once a newer result is kept. */
export function resultPicture(id: number, output: OutputName, ask: PictureAsk): PooledPicture | null {
  lastAsk = { output, ask };
  const picture = pictureOf(id, output, ask);
  return picture && Comlink.transfer(picture, pictureBuffers(picture));
}

/**
 * The kept result's picture for the page's last ask, to send with the result (not transferred: the
 * caller adds its buffers to the result's): the heatmap then draws it in the commit that brings the
 * result, with no round trip. Null before the page has asked for any.
 */
export function expectedPicture(): SentPicture<OutputName> | null {
  if (!kept || !lastAsk) return null;
  const picture = pictureOf(kept.id, lastAsk.output, lastAsk.ask);
  return picture && { ...lastAsk, picture };
}

function pictureOf(id: number, output: OutputName, ask: PictureAsk): PooledPicture | null {
  if (!kept || kept.id !== id) return null;
  const reference = kept.reference[output];
  const actual = kept.chunked[output];
  if (!reference || !actual) return null;
  let pictures = kept.outputs.get(output);
  if (!pictures) {
    pictures = new BatchPictures({
      rows: kept.rows,
      cols: kept.cols,
      lengths: kept.lengths,
      reference,
      actual,
      bound: kept.bound[output],
      lossMask: kept.lossMask,
    });
    kept.outputs.set(output, pictures);
  }
  return pictures.picture(ask);
}
