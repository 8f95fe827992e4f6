import * as Comlink from "comlink";
import type { CsvResults } from "../../io/csvExport";
import type { PlaygroundState } from "../../io/playgroundState";
import type { PytestExport } from "../../io/pytestSnippet";
import type { SlimeTolerancePrediction } from "../../io/slimeTolerance";
import { LatestOnly } from "../workerClient/latestOnly";
import { LazyWorker } from "../workerClient/lazyWorker";
import type { LaneTarget } from "./importFile";
import { type PackedState, packState } from "./packState";
import type { DecodeAnswer, FileAnswer, ImportAnswer, StateCodecApi } from "./stateCodecWorker";

/** The state packed into typed arrays, transferred rather than cloned number by number. */
function packed(state: PlaygroundState): PackedState {
  const { packed, buffers } = packState(state);
  return Comlink.transfer(packed, buffers);
}

/** The codec worker (links, case files), started on first use; encodes coalesce to the newest state. */
export class StateCodec {
  private readonly worker = new LazyWorker<StateCodecApi>(
    () => new Worker(new URL("./stateCodecWorker.ts", import.meta.url), { type: "module" }),
  );
  private readonly encodes = new LatestOnly<string>();

  encode(state: PlaygroundState): Promise<string> {
    return this.encodes.run(() => this.worker.remote().encode(packed(state)));
  }

  decode(text: string, source: string): Promise<DecodeAnswer> {
    return this.worker.remote().decode(text, source);
  }

  /** Reads a file in the worker; the bytes are transferred (the caller keeps none). */
  importFile(name: string, bytes: Uint8Array, state: PlaygroundState, target: LaneTarget): Promise<ImportAnswer> {
    return this.worker
      .remote()
      .importFile(name, Comlink.transfer(bytes, [bytes.buffer as ArrayBuffer]), packed(state), target);
  }

  caseFile(state: PlaygroundState): Promise<FileAnswer> {
    return this.worker.remote().caseFile(packed(state));
  }

  conventionCase(state: PlaygroundState): Promise<FileAnswer> {
    return this.worker.remote().conventionCase(packed(state));
  }

  csv(state: PlaygroundState, results: CsvResults): Promise<FileAnswer> {
    return this.worker.remote().csv(packed(state), results);
  }

  pytest(state: PlaygroundState): Promise<PytestExport> {
    return this.worker.remote().pytest(packed(state));
  }

  pytestPrediction(state: PlaygroundState): Promise<SlimeTolerancePrediction> {
    return this.worker.remote().pytestPrediction(packed(state));
  }

  dispose(): void {
    this.worker.dispose();
  }
}
