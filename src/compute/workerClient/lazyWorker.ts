import * as Comlink from "comlink";
import { SupersededError } from "../../engine/client";

/**
 * A Comlink handle on a module worker started on first use, so a view that never asks pays for no
 * worker. `start` must be written at the call site as `() => new Worker(new URL("./x.ts",
 * import.meta.url), { type: "module" })`: Vite bundles a worker only where it sees that form.
 */
export class LazyWorker<Api> {
  private worker?: Worker;
  private api?: Comlink.Remote<Api>;
  /** Rejects the calls in flight (`call`) when the worker is ended: Comlink's own would never settle. */
  private ended?: { promise: Promise<never>; end(): void };

  constructor(private readonly start: () => Worker) {}

  remote(): Comlink.Remote<Api> {
    if (!this.api) {
      this.worker = this.start();
      this.api = Comlink.wrap<Api>(this.worker);
    }
    return this.api;
  }

  /**
   * A call on the worker that rejects with SupersededError if the worker is ended first, so that a
   * queue waiting on it (LatestOnly) moves on.
   */
  call<R>(ask: (api: Comlink.Remote<Api>) => R): Promise<Awaited<R>> {
    const api = this.remote();
    if (!this.ended) {
      let end = () => {};
      const promise = new Promise<never>((_, reject) => {
        end = () => reject(new SupersededError("the worker was ended"));
      });
      promise.catch(() => {});
      this.ended = { promise, end };
    }
    return Promise.race([Promise.resolve(ask(api)), this.ended.promise]) as Promise<Awaited<R>>;
  }

  /** Ends the worker; a later remote() starts a fresh one. */
  dispose(): void {
    this.ended?.end();
    this.ended = undefined;
    this.api?.[Comlink.releaseProxy]();
    this.worker?.terminate();
    this.worker = undefined;
    this.api = undefined;
  }
}
