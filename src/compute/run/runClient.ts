import type { SlimeSettings } from "../../core";
import { type CellValues, type PictureAsk, type PooledPicture, sameAsk } from "../heatmap/picture";
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
  /**
   * Each field's picture as the worker transferred it (by pictureId, for one ask): the worker keeps no
   * copy, so a switch back to a field, or to one fetched ahead, draws without asking it.
   */
  private readonly pictures = new Map<number, { ask: PictureAsk; picture: PooledPicture }>();
  /** The last grids' picture ids: the fields fetched ahead after the first picture. */
  private pictureIds: number[] = [];
  private fetchingAhead = false;

  /** Starts the worker, so that its module is loaded and compiled before the first file comes. */
  warm(): void {
    this.worker.remote();
  }

  /** The Files go to the worker as references (a Blob clones by handle): the worker reads what it needs. */
  open(files: RunFile[], settings: Partial<SlimeSettings>): Promise<OpenAnswer> {
    return this.latest.run(() => this.worker.remote().open(files, settings));
  }

  replay(settings: Partial<SlimeSettings>): Promise<OpenAnswer> {
    return this.latest.run(() => this.worker.remote().replay(settings));
  }

  /** The last report's grids' shapes, which follow its verdict; a newer report's request supersedes a waiting one. */
  grids(): Promise<GridsAnswer> {
    return this.latestGrids
      .run(() => this.worker.remote().grids())
      .then((answer) => {
        if (answer.ok) {
          this.pictureIds = Object.values(answer.grids).flatMap((grid) => (grid ? [grid.pictureId] : []));
          for (const id of this.pictures.keys()) if (!this.pictureIds.includes(id)) this.pictures.delete(id);
        }
        return answer;
      });
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

  /**
   * The heatmap's pooled picture of a grid (its pictureId), from those held here, else asked of the
   * worker (a newer ask supersedes a waiting one); once it comes, the other fields' pictures for the
   * same ask are fetched ahead, one at a time, so that a field switch only draws.
   */
  picture(pictureId: number, ask: PictureAsk): Promise<PooledPicture | null> {
    const held = this.heldPicture(pictureId, ask);
    if (held) return Promise.resolve(held);
    return this.latestPicture
      .run(() => this.worker.remote().picture(pictureId, ask))
      .then((picture) => {
        this.hold(pictureId, ask, picture);
        this.fetchAhead(ask);
        return picture;
      });
  }

  /** A picture of this grid and ask held here, or null. */
  heldPicture(pictureId: number, ask: PictureAsk): PooledPicture | null {
    const held = this.pictures.get(pictureId);
    return held && sameAsk(held.ask, ask) ? held.picture : null;
  }

  private hold(pictureId: number, ask: PictureAsk, picture: PooledPicture | null): void {
    if (picture && this.pictureIds.includes(pictureId)) this.pictures.set(pictureId, { ask, picture });
  }

  private fetchAhead(ask: PictureAsk): void {
    if (this.fetchingAhead) return;
    const next = this.pictureIds.find((id) => !this.heldPicture(id, ask));
    if (next === undefined) return;
    this.fetchingAhead = true;
    this.worker
      .remote()
      .picture(next, ask)
      .then(
        (picture) => {
          this.fetchingAhead = false;
          this.hold(next, ask, picture);
          if (picture) this.fetchAhead(ask);
        },
        () => {
          this.fetchingAhead = false;
        },
      );
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
    this.pictures.clear();
    this.worker.dispose();
  }
}
