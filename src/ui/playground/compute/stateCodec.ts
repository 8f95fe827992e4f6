import * as Comlink from "comlink";
import type { CsvResults } from "../../../io/csvExport";
import type { PlaygroundState } from "../../../io/playgroundState";
import { LatestOnly } from "./latestOnly";
import { type PackedState, packState } from "./packState";
import type { DecodeAnswer, FileAnswer, StateCodecApi } from "./stateCodecWorker";

/** The state packed into typed arrays, transferred rather than cloned number by number. */
function packed(state: PlaygroundState): PackedState {
  const { packed, buffers } = packState(state);
  return Comlink.transfer(packed, buffers);
}

/** The codec worker (links, case files), started on first use; encodes coalesce to the newest state. */
export class StateCodec {
  private worker?: Worker;
  private api?: Comlink.Remote<StateCodecApi>;
  private readonly encodes = new LatestOnly<string>();

  encode(state: PlaygroundState): Promise<string> {
    return this.encodes.run(() => this.remote().encode(packed(state)));
  }

  decode(text: string, source: string): Promise<DecodeAnswer> {
    return this.remote().decode(text, source);
  }

  caseFile(state: PlaygroundState): Promise<FileAnswer> {
    return this.remote().caseFile(packed(state));
  }

  conventionCase(state: PlaygroundState): Promise<FileAnswer> {
    return this.remote().conventionCase(packed(state));
  }

  csv(state: PlaygroundState, results: CsvResults): Promise<FileAnswer> {
    return this.remote().csv(packed(state), results);
  }

  pytest(state: PlaygroundState): Promise<string> {
    return this.remote().pytest(packed(state));
  }

  dispose(): void {
    this.api?.[Comlink.releaseProxy]();
    this.worker?.terminate();
    this.worker = undefined;
    this.api = undefined;
  }

  private remote(): Comlink.Remote<StateCodecApi> {
    if (!this.api) {
      this.worker = new Worker(new URL("./stateCodecWorker.ts", import.meta.url), { type: "module" });
      this.api = Comlink.wrap<StateCodecApi>(this.worker);
    }
    return this.api;
  }
}
