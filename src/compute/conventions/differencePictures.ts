/**
 * The conventions panel's difference heatmap, pooled where its tables live: the convention worker
 * keeps the newest reference's float64 runs (the page gets copies), so the picture of |other −
 * shown| for the bins the heatmap has room for is pooled here and only the picture crosses to the
 * page. A picture of an older run answers null (the page shows the newer one's soon).
 */
import type { Library } from "../../core";
import { BatchPictures, type PictureAsk, type PooledPicture, type SentPicture } from "../heatmap/picture";
import type { ConventionOutput, ConventionReference } from "./conventionRun";

/** A picture pooled before it was asked, for the pair and output of the page's last ask. */
export type SentDifference = SentPicture<ConventionOutput> & { other: Library };

/** The loss masks of a batch as one padded `[rows, cols]` table (0 = masked, and in the padding). */
export function paddedMasks(masks: ArrayLike<number>[], lengths: number[], cols: number): Uint8Array {
  const out = new Uint8Array(masks.length * cols);
  masks.forEach((mask, b) => {
    const n = Math.min(lengths[b] ?? 0, cols, mask.length);
    for (let t = 0; t < n; t++) out[b * cols + t] = mask[t];
  });
  return out;
}

export class DifferencePictures {
  private kept: {
    id: number;
    reference: ConventionReference;
    masks: ArrayLike<number>[];
    lossMask?: Uint8Array;
    /** The pair and output measured last (one at a time: at 64 × 32768 each holds tens of MB). */
    measured?: { key: string; pictures: BatchPictures };
  } | null = null;
  private last: { other: Library; output: ConventionOutput; ask: PictureAsk } | null = null;

  /** Keeps run `id`'s float64 runs (the first is the library shown) and the batch's loss masks. */
  keep(id: number, reference: ConventionReference, masks: ArrayLike<number>[]): void {
    this.kept = { id, reference, masks };
  }

  /** The picture of |`other` − shown| in `output` of run `id`; null once a newer run is kept, or where a library refused. */
  picture(id: number, other: Library, output: ConventionOutput, ask: PictureAsk): PooledPicture | null {
    this.last = { other, output, ask };
    return this.pictureOf(id, other, output, ask);
  }

  /** The kept run's picture for the page's last ask (its pair and output), to send with the run; null before any. */
  expected(): SentDifference | null {
    const { kept, last } = this;
    if (!kept || !last) return null;
    const picture = this.pictureOf(kept.id, last.other, last.output, last.ask);
    return picture && { ...last, picture };
  }

  private pictureOf(id: number, other: Library, output: ConventionOutput, ask: PictureAsk): PooledPicture | null {
    const { kept } = this;
    if (!kept || kept.id !== id) return null;
    const { runs, rows, cols, lengths } = kept.reference;
    const shown = runs[0];
    const compared = runs.find((run, i) => i > 0 && run.library === other);
    if (!shown?.ok || !compared?.ok) return null;
    const key = `${other} ${output}`;
    if (kept.measured?.key !== key) {
      kept.lossMask ??= paddedMasks(kept.masks, lengths, cols);
      const reference = shown.tables[output];
      const actual = compared.tables[output];
      const pictures = new BatchPictures({ rows, cols, lengths, reference, actual, lossMask: kept.lossMask });
      kept.measured = { key, pictures };
    }
    return kept.measured.pictures.picture(ask);
  }
}
