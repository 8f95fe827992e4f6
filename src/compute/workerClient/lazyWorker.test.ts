import * as Comlink from "comlink";
import { afterEach, describe, expect, it } from "vitest";
import { SupersededError } from "../../engine/client";
import { LazyWorker } from "./lazyWorker";

const open: MessagePort[] = [];
afterEach(() => {
  for (const port of open.splice(0)) port.close();
});

/** A stand-in for a module worker: a message port whose other end serves `api`, counting starts and ends. */
function fakeWorkers(api: object) {
  const counts = { started: 0, terminated: 0 };
  const start = () => {
    counts.started += 1;
    const { port1, port2 } = new MessageChannel();
    open.push(port1, port2);
    Comlink.expose(api, port2);
    return Object.assign(port1, { terminate: () => (counts.terminated += 1) }) as unknown as Worker;
  };
  return { counts, start };
}

describe("LazyWorker", () => {
  it("starts no worker until asked, then one for every call", async () => {
    const { counts, start } = fakeWorkers({ double: (x: number) => 2 * x });
    const worker = new LazyWorker<{ double(x: number): number }>(start);
    expect(counts.started).toBe(0);
    expect(await worker.remote().double(3)).toBe(6);
    expect(await worker.remote().double(4)).toBe(8);
    expect(counts.started).toBe(1);
  });

  it("ends the worker on dispose and starts a fresh one when asked again", async () => {
    const { counts, start } = fakeWorkers({ double: (x: number) => 2 * x });
    const worker = new LazyWorker<{ double(x: number): number }>(start);
    worker.dispose();
    expect(counts.terminated).toBe(0);
    await worker.remote().double(1);
    worker.dispose();
    expect(counts.terminated).toBe(1);
    expect(await worker.remote().double(5)).toBe(10);
    expect(counts.started).toBe(2);
  });

  it("rejects a call in flight when the worker is ended, where Comlink's would never settle", async () => {
    const { start } = fakeWorkers({ never: () => new Promise(() => {}), double: (x: number) => 2 * x });
    const worker = new LazyWorker<{ never(): Promise<number>; double(x: number): number }>(start);
    const waiting = worker.call((api) => api.never());
    worker.dispose();
    await expect(waiting).rejects.toBeInstanceOf(SupersededError);
    expect(await worker.call((api) => api.double(2))).toBe(4);
  });
});
