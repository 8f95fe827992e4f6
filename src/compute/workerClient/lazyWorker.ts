import * as Comlink from "comlink";

/**
 * A Comlink handle on a module worker started on first use, so a view that never asks pays for no
 * worker. `start` must be written at the call site as `() => new Worker(new URL("./x.ts",
 * import.meta.url), { type: "module" })`: Vite bundles a worker only where it sees that form.
 */
export class LazyWorker<Api> {
  private worker?: Worker;
  private api?: Comlink.Remote<Api>;

  constructor(private readonly start: () => Worker) {}

  remote(): Comlink.Remote<Api> {
    if (!this.api) {
      this.worker = this.start();
      this.api = Comlink.wrap<Api>(this.worker);
    }
    return this.api;
  }

  /** Ends the worker; a later remote() starts a fresh one. */
  dispose(): void {
    this.api?.[Comlink.releaseProxy]();
    this.worker?.terminate();
    this.worker = undefined;
    this.api = undefined;
  }
}
