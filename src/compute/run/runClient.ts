import * as Comlink from "comlink";
import type { SlimeSettings } from "../../core";
import { type CellValues, type PictureAsk, type PooledPicture, sameAsk } from "../heatmap/picture";
import { LatestOnly } from "../workerClient/latestOnly";
import { LazyWorker } from "../workerClient/lazyWorker";
import type { BitsAnswer, GridsAnswer, OpenAnswer, OpenProgress, Refusal, RunFile, RunWorkerApi } from "./runWorker";
import type { SampleFieldsAnswer } from "./sampleFields";

const runWorker = () => new Worker(new URL("./runWorker.ts", import.meta.url), { type: "module" });

/**
 * The run view's worker: reading, understanding and replaying a dump; the newest request wins. A
 * file chosen while a dump is open is read in a worker of its own, which takes over once it has
 * read it: until then the open dump stays where it is, so a refusal or a Cancel leaves it as it was.
 */
export class RunClient {
  private worker: LazyWorker<RunWorkerApi>;
  /** Whether `worker` holds a dump (a new file is then read in another). */
  private holdsDump = false;
  /** The read in progress, to cancel: it ends its worker. */
  private reading: { cancel(): void } | null = null;
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

  /** `start`: a worker serving RunWorkerApi (a test passes a stand-in). */
  constructor(private readonly start: () => Worker = runWorker) {
    this.worker = new LazyWorker<RunWorkerApi>(start);
  }

  /** Starts the worker, so that its module is loaded and compiled before the first file comes. */
  warm(): void {
    this.worker.remote();
  }

  /**
   * The Files go to the worker as references (a Blob clones by handle): the worker reads what it
   * needs, telling `onProgress` how far it is. Rejects with "cancelled" when cancelOpen() ends it.
   */
  open(
    files: RunFile[],
    settings: Partial<SlimeSettings>,
    onProgress?: (p: OpenProgress) => void,
  ): Promise<OpenAnswer> {
    return this.latest.run(() => this.read(files, settings, onProgress));
  }

  private read(files: RunFile[], settings: Partial<SlimeSettings>, onProgress?: (p: OpenProgress) => void) {
    const reader = this.holdsDump ? new LazyWorker<RunWorkerApi>(this.start) : this.worker;
    const progress = onProgress ? Comlink.proxy(onProgress) : undefined;
    return new Promise<OpenAnswer>((resolve, reject) => {
      const reading = {
        cancel: () => {
          reader.dispose();
          reject(new Error("cancelled"));
        },
      };
      this.reading = reading;
      reader
        .call((api) => api.open(files, settings, progress))
        .then((answer) => {
          if (answer.ok) this.takeOver(reader);
          else if (reader !== this.worker) reader.dispose();
          resolve(answer);
        }, reject)
        .finally(() => {
          if (this.reading === reading) this.reading = null;
        });
    });
  }

  /** The worker that read the new dump becomes the view's; the last one's pictures and requests go with it. */
  private takeOver(reader: LazyWorker<RunWorkerApi>): void {
    this.holdsDump = true;
    if (reader === this.worker) return;
    this.worker.dispose();
    this.worker = reader;
    this.pictures.clear();
    this.pictureIds = [];
  }

  /** Ends the read in progress, if any; the dump open before it stays open. */
  cancelOpen(): void {
    this.reading?.cancel();
  }

  replay(settings: Partial<SlimeSettings>): Promise<OpenAnswer> {
    return this.latest.run(() => this.worker.call((api) => api.replay(settings)));
  }

  /** The last report's grids' shapes, which follow its verdict; a newer report's request supersedes a waiting one. */
  grids(): Promise<GridsAnswer> {
    return this.latestGrids
      .run(() => this.worker.call((api) => api.grids()))
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
    return this.worker.call((api) => api.bits());
  }

  search(settings: Partial<SlimeSettings>) {
    return this.worker.call((api) => api.search(settings));
  }

  /** One sample's stored per-token fields; a newer sample's request supersedes a waiting one. */
  sampleFields(index: number): Promise<SampleFieldsAnswer | Refusal> {
    return this.latestFields.run(() => this.worker.call((api) => api.sampleFields(index)));
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
      .run(() => this.worker.call((api) => api.picture(pictureId, ask)))
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
      .call((api) => api.picture(next, ask))
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
    return this.latestCell.run(() => this.worker.call((api) => api.cell(pictureId, row, token)));
  }

  sampleInPlayground(index: number, settings: Partial<SlimeSettings>) {
    return this.worker.call((api) => api.sampleInPlayground(index, settings));
  }

  plainInPlayground() {
    return this.worker.call((api) => api.plainInPlayground());
  }

  exportCases(indices: number[], settings: Partial<SlimeSettings>) {
    return this.worker.call((api) => api.exportCases(indices, settings));
  }

  exportPytest(indices: number[], settings: Partial<SlimeSettings>) {
    return this.worker.call((api) => api.exportPytest(indices, settings));
  }

  dispose(): void {
    this.reading?.cancel();
    this.pictures.clear();
    this.worker.dispose();
  }
}
