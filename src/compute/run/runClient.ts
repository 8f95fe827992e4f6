import type { SlimeSettings } from "../../core";
import type { CellValues, PictureAsk, PooledPicture } from "../heatmap/picture";
import { LatestOnly } from "../workerClient/latestOnly";
import { LazyWorker } from "../workerClient/lazyWorker";
import type { BitsAnswer, GridsAnswer, OpenAnswer, Refusal, RunFile, RunWorkerApi } from "./runWorker";
import type { SampleFieldsAnswer } from "./sampleFields";

/** The run view's worker: reading, understanding and replaying a dump; the newest request wins. */
export class RunClient {
  private readonly worker = new LazyWorker<RunWorkerApi>(
    () => new Worker(new URL("./runWorker.ts", import.meta.url), { type: "module" }),
  );
  private readonly latest = new LatestOnly<OpenAnswer>();
  private readonly latestFields = new LatestOnly<SampleFieldsAnswer | Refusal>();
  private readonly latestGrids = new LatestOnly<GridsAnswer>();
  private readonly latestPicture = new LatestOnly<PooledPicture | null>();
  private readonly latestCell = new LatestOnly<CellValues | null>();

  /** The Files go to the worker as references (a Blob clones by handle): the worker reads what it needs. */
  open(files: RunFile[], settings: Partial<SlimeSettings>): Promise<OpenAnswer> {
    return this.latest.run(() => this.worker.remote().open(files, settings));
  }

  replay(settings: Partial<SlimeSettings>): Promise<OpenAnswer> {
    return this.latest.run(() => this.worker.remote().replay(settings));
  }

  /** The last report's grids' shapes, which follow its verdict; a newer report's request supersedes a waiting one. */
  grids(): Promise<GridsAnswer> {
    return this.latestGrids.run(() => this.worker.remote().grids());
  }

  /** The last report's bit-for-bit comparison, which follows its verdict. */
  bits(): Promise<BitsAnswer> {
    return this.worker.remote().bits();
  }

  search(settings: Partial<SlimeSettings>) {
    return this.worker.remote().search(settings);
  }

  /** One sample's stored per-token fields; a newer sample's request supersedes a waiting one. */
  sampleFields(index: number): Promise<SampleFieldsAnswer | Refusal> {
    return this.latestFields.run(() => this.worker.remote().sampleFields(index));
  }

  /** The heatmap's pooled picture of a grid (its pictureId); a newer ask supersedes a waiting one. */
  picture(pictureId: number, ask: PictureAsk): Promise<PooledPicture | null> {
    return this.latestPicture.run(() => this.worker.remote().picture(pictureId, ask));
  }

  /** One cell's values of a grid (its pictureId), for the heatmap's readout; the pointer's newest cell supersedes a waiting one. */
  cell(pictureId: number, row: number, token: number): Promise<CellValues | null> {
    return this.latestCell.run(() => this.worker.remote().cell(pictureId, row, token));
  }

  sampleInPlayground(index: number, settings: Partial<SlimeSettings>) {
    return this.worker.remote().sampleInPlayground(index, settings);
  }

  plainInPlayground() {
    return this.worker.remote().plainInPlayground();
  }

  exportCases(indices: number[], settings: Partial<SlimeSettings>) {
    return this.worker.remote().exportCases(indices, settings);
  }

  exportPytest(indices: number[], settings: Partial<SlimeSettings>) {
    return this.worker.remote().exportPytest(indices, settings);
  }

  dispose(): void {
    this.worker.dispose();
  }
}
