import * as Comlink from "comlink";
import { afterEach, describe, expect, it } from "vitest";
import { SupersededError } from "../../engine/client";
import { RunClient } from "./runClient";
import type { RunFile } from "./runWorker";

const ports: MessagePort[] = [];
afterEach(() => {
  for (const port of ports.splice(0)) port.close();
});

/**
 * Stand-ins for the run worker, each a message port serving a few of its calls: a file named "slow"
 * is never read, a picture never pooled, and each answer says which worker gave it.
 */
function fakeWorkers() {
  const counts = { started: 0, terminated: 0 };
  const start = () => {
    const worker = ++counts.started;
    const never = () => new Promise(() => {});
    const api = {
      open: (files: { name: string }[], _given: unknown, onProgress?: (p: unknown) => void) => {
        if (files[0].name === "slow") {
          onProgress?.({ stage: "read", bytes: 1, total: 2 });
          return never();
        }
        return { ok: true, report: { fileName: files[0].name, worker } };
      },
      sampleFields: (index: number) => ({ ok: true, sample: index, worker }),
      picture: never,
    };
    const { port1, port2 } = new MessageChannel();
    ports.push(port1, port2);
    Comlink.expose(api, port2);
    return Object.assign(port1, { terminate: () => (counts.terminated += 1) }) as unknown as Worker;
  };
  return { counts, start };
}

const file = (name: string) => ({ name, blob: null }) as unknown as RunFile;

describe("RunClient: a file read beside the open dump", () => {
  it("reads a new file in a worker of its own; Cancel ends it and the open dump stays answered", async () => {
    const { counts, start } = fakeWorkers();
    const client = new RunClient(start);
    const first = await client.open([file("a.pt")], {});
    expect(first).toMatchObject({ ok: true, report: { fileName: "a.pt", worker: 1 } });

    let told: (p: unknown) => void = () => {};
    const progress = new Promise((resolve) => {
      told = resolve;
    });
    const slow = client.open([file("slow")], {}, (p) => told(p));
    expect(await progress).toEqual({ stage: "read", bytes: 1, total: 2 });
    client.cancelOpen();
    await expect(slow).rejects.toThrow("cancelled");
    expect(counts).toEqual({ started: 2, terminated: 1 });
    expect(await client.sampleFields(3)).toMatchObject({ sample: 3, worker: 1 });

    // The next file read takes over: the last worker is ended, and a call waiting on it rejects.
    const waiting = client.picture(7, { maxBinsX: 1, maxBinsY: 1, metric: "abs", precision: "float32", colourRow: -1 });
    expect(await client.open([file("b.pt")], {})).toMatchObject({ ok: true, report: { worker: 3 } });
    await expect(waiting).rejects.toBeInstanceOf(SupersededError);
    expect(counts).toEqual({ started: 3, terminated: 2 });
    expect(await client.sampleFields(1)).toMatchObject({ worker: 3 });
    client.dispose();
  });

  it("reads the first file in the view's own worker, started ahead", async () => {
    const { counts, start } = fakeWorkers();
    const client = new RunClient(start);
    client.warm();
    expect(await client.open([file("a.pt")], {})).toMatchObject({ report: { worker: 1 } });
    expect(counts).toEqual({ started: 1, terminated: 0 });
    client.dispose();
  });
});
