import type * as Comlink from "comlink";
import { describe, expect, it } from "vitest";
import { CancelledError } from "../../engine/client";
import { pooledHere, presetRequest } from "../../testing/playgroundRunKit";
import type { PictureAsk } from "../heatmap/picture";
import { type PlaygroundWorkerApi, playgroundApi } from "./playgroundApi";
import { PlaygroundClient, type PlaygroundWorkerHandle } from "./playgroundClient";
import { coreChunked, finishRun, type RunRequest, startRun, toFloat32 } from "./playgroundRun";

/**
 * The worker's api on this thread: `dispose` drops its state as ending a worker does, and a run
 * asked while `hold` is set never answers (a worker busy with it until it is ended).
 */
class SameThreadWorker implements PlaygroundWorkerHandle {
  api: PlaygroundWorkerApi | null = null;
  started = 0;
  hold = false;

  remote(): Comlink.Remote<PlaygroundWorkerApi> {
    if (!this.api) {
      this.api = playgroundApi();
      this.started++;
    }
    const api = this.api;
    return new Proxy({} as Comlink.Remote<PlaygroundWorkerApi>, {
      get:
        (_, name: keyof PlaygroundWorkerApi) =>
        async (...args: unknown[]) => {
          if (this.hold && name === "run") return new Promise(() => {});
          // A structured clone, as a worker's message is (the page keeps its own tables; ports move).
          const transfer = args.filter((a) => a instanceof MessagePort);
          return (api[name] as (...a: unknown[]) => unknown)(...structuredClone(args, { transfer }));
        },
    });
  }

  dispose(): void {
    this.api = null;
  }
}

/** A 4 × 300 GAE run whose flat tokens 40–89 are masked. */
const request = (id: number) => presetRequest(id, { rows: 4, tokens: 300, seed: 3 }, [40, 90]);

describe("the playground client's pictures", () => {
  it("pools the result still shown after a cancel ended the worker that computed it", async () => {
    const worker = new SameThreadWorker();
    const client = new PlaygroundClient(worker);
    const asked = request(1);
    const shown = await client.result(asked);
    if (!shown) throw new Error("no result");
    const wide: PictureAsk = { maxBinsX: 300, maxBinsY: 4, metric: "abs", precision: "float32", colourRow: -1 };
    const narrow = { ...wide, maxBinsX: 37 };
    const before = await client.picture(1, "advantages", wide, shown);
    expect(before?.grid.binsX).toBe(300);

    // A second run is cancelled while the worker computes it: the worker is ended.
    worker.hold = true;
    const cancelled = client.result(request(2));
    await new Promise((resolve) => setTimeout(resolve, 0));
    client.cancel();
    await expect(cancelled).rejects.toBeInstanceOf(CancelledError);
    worker.hold = false;

    // A resize asks the next worker for a picture of the result on screen: pooled for the new room.
    const resized = await client.picture(1, "advantages", narrow, shown);
    expect(worker.started).toBe(2);
    const want = pooledHere(shown, "advantages", asked.lossMask, narrow);
    expect(resized?.grid.binsX).toBe(37);
    expect(resized?.grid).toEqual(want.grid);
    expect(resized?.grid.masked.some((m) => m === 1)).toBe(true);
    // The other output too, and the first again, at once.
    expect((await client.picture(1, "returns", narrow, shown))?.grid.binsX).toBe(37);
    expect((await client.picture(1, "advantages", wide, shown))?.grid).toEqual(before?.grid);
  });

  it("asks the worker that computed a result for its pictures without sending it back", async () => {
    const worker = new SameThreadWorker();
    const client = new PlaygroundClient(worker);
    const shown = await client.result(request(3));
    if (!shown) throw new Error("no result");
    const api = worker.api as PlaygroundWorkerApi;
    let restored = 0;
    const restore = api.restore;
    api.restore = (...args) => {
      restored++;
      restore(...args);
    };
    const ask: PictureAsk = { maxBinsX: 50, maxBinsY: 4, metric: "rel", precision: "float32", colourRow: 0 };
    expect((await client.picture(3, "returns", ask, shown))?.grid.binsX).toBe(50);
    expect(restored).toBe(0);
  });
});

describe("the playground client's inputs", () => {
  it("sends a run's input arrays once while they stay the same, and again to a new worker", async () => {
    const worker = new SameThreadWorker();
    const client = new PlaygroundClient(worker);
    const first = request(1);
    const gae = first.problem;
    if (gae.kind !== "gae") throw new Error("a GAE preset");
    // A γ edit: the same arrays (problemCache.ts), another γ.
    const edited = (id: number): RunRequest => ({ ...first, id, problem: { ...gae, gamma: 0.9 - id / 100 } });
    const sent: (boolean | undefined)[] = [];
    const record = () => {
      const api = worker.remote() && (worker.api as PlaygroundWorkerApi);
      const run = api.run;
      api.run = (asked) => {
        sent.push(asked.keptInputs);
        return run(asked);
      };
    };
    record();
    await client.result(first);
    const second = await client.result(edited(2));
    expect(sent).toEqual([undefined, true]);
    // The kept arrays give the bits the arrays themselves give.
    const here = finishRun(startRun(edited(2)));
    expect(second?.summary).toEqual(here.summary);
    expect(second?.chunked).toEqual(here.chunked);
    expect(second?.reference).toEqual(here.reference);
    expect(second?.bound).toEqual(here.bound);

    // The engine's precision: the worker prepares on the kept arrays while the engine runs.
    const asked: RunRequest = { ...edited(5), precision: "float32-engine" };
    const answer = coreChunked(asked.problem, toFloat32(asked.problem), "float32-engine");
    const prepare = (worker.api as PlaygroundWorkerApi).prepare;
    (worker.api as PlaygroundWorkerApi).prepare = (request) => {
      sent.push(request.keptInputs);
      prepare(request);
    };
    // The engine's worker posts its outputs straight to the playground worker.
    const { port1, port2 } = new MessageChannel();
    port1.postMessage(structuredClone(answer));
    const engine = await client.result(asked, { asked: Promise.resolve(), port: port2 });
    expect(sent).toEqual([undefined, true, true]);
    expect(engine?.summary).toEqual(finishRun(startRun(asked), answer).summary);
    // An engine that fails posts nothing: the run rejects with its error, and the worker waits no more.
    const failing = client.result({ ...asked, id: 6 }, { asked: Promise.reject(new Error("no GPU")), port: port1 });
    await expect(failing).rejects.toThrow("no GPU");
    const after = await client.result(edited(7));
    expect(after?.summary).toEqual(finishRun(startRun(edited(7))).summary);

    client.cancel();
    record();
    const third = await client.result(edited(3));
    expect(sent).toEqual([undefined, true, true, true, true, undefined]);
    expect(third?.chunked).toEqual(finishRun(startRun(edited(3))).chunked);
    // New arrays (another batch) are sent.
    await client.result(request(4));
    expect(sent).toEqual([undefined, true, true, true, true, undefined, undefined]);
  });
});
