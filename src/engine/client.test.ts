import * as Comlink from "comlink";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { type ConventionProblem, ScanInputError, type ScanProblem } from "../core";
import type { BackendRequest } from "../names/backends";
import {
  CancelledError,
  EngineClient,
  type EngineEvent,
  type EngineRun,
  SupersededError,
  WorkerDiedError,
} from "./client";
import { type InputsSent, withInputs } from "./keptInputs";
import { problemDeadlineMs } from "./watchdog";
import type { ConventionProblemResult, EngineWorkerApi, ProblemResult } from "./worker";

/**
 * A stand-in for the worker: the real comlink protocol over a MessageChannel, with an engine
 * that echoes its input after a delay (on the fake clock), so the client's supersede and death
 * handling can be checked without a browser.
 */
interface FakeWorker {
  worker: Worker;
  request?: BackendRequest;
  /** Fires the worker's `error` event, as a crash does. */
  crash(message: string): void;
  terminated: boolean;
  /** What each runProblems call was sent: how its inputs came, each problem's data length and discount. */
  sent: { inputs?: InputsSent; lengths: number[]; discounts: number[] }[];
}

/** `endMs`: how long the fake takes to end a run after its last result (the worker's own end of it). */
function fakeWorkers(delayMs = 20, endMs = 0) {
  const started: FakeWorker[] = [];
  const create = (): Worker => {
    const { port1, port2 } = new MessageChannel();
    const errorListeners: ((event: ErrorEvent) => void)[] = [];
    const fake: FakeWorker = {
      worker: undefined as unknown as Worker,
      terminated: false,
      sent: [],
      crash(message) {
        for (const listener of errorListeners) listener({ message, preventDefault() {} } as ErrorEvent);
      },
    };
    let latest = -1;
    let kept: ScanProblem | null = null;
    const api: EngineWorkerApi = {
      async init(requested) {
        fake.request = requested;
        const backend = requested === "auto" ? "webgpu" : requested;
        return { requested, backend, fellBack: false };
      },
      async runProblems(runId, sent, strategy, onResult, options = {}, inputs) {
        latest = runId;
        const discountOf = (p: ScanProblem) => (p.kind === "discounted" ? p.discount : Number.NaN);
        const lengthOf = (p: ScanProblem) => (p.kind === "discounted" ? p.rewards.data.length : -1);
        fake.sent.push({ inputs, lengths: sent.map(lengthOf), discounts: sent.map(discountOf) });
        if (inputs === "keep") kept = sent[0];
        const problems = inputs === "kept" && kept ? sent.map((p) => withInputs(p, kept as ScanProblem)) : sent;
        let completed = 0;
        for (const [index, problem] of problems.entries()) {
          await new Promise((resolve) => setTimeout(resolve, delayMs));
          if (latest !== runId) return { completed, superseded: true, backend: "fake" };
          if (problem.kind !== "discounted") throw new Error("the fake solves discounted problems only");
          const result: ProblemResult =
            problem.discount < 0
              ? {
                  index,
                  ok: false,
                  error: { name: "ScanInputError", message: "discount is negative", referenceType: "AssertionError" },
                }
              : {
                  index,
                  ok: true,
                  run: {
                    outputs: { kind: "discounted", returns: Float32Array.from(problem.rewards.data) },
                    trace:
                      options.trace === false
                        ? undefined
                        : {
                            chunkSize: 4,
                            nChunks: 1,
                            pad: 0,
                            localScans: new Float32Array(4),
                            carriesIn: new Float32Array(1),
                          },
                    backend: fake.request ?? "?",
                    strategy,
                    millis: delayMs,
                  },
                };
          completed++;
          await onResult(result);
        }
        await new Promise((resolve) => setTimeout(resolve, endMs));
        return { completed, superseded: false, backend: fake.request ?? "?" };
      },
      async runConventions(runId, problems, _strategy, onResult) {
        latest = runId;
        let completed = 0;
        for (const [index, problem] of problems.entries()) {
          await new Promise((resolve) => setTimeout(resolve, delayMs));
          if (latest !== runId) return { completed, superseded: true, backend: "fake" };
          // Echoes the KL as every output: enough to see order, transfer and supersede.
          const kl = problem.batch.kl.map((row) => Float32Array.from(row));
          const result: ConventionProblemResult = {
            index,
            ok: true,
            run: {
              result: { tokenLevelRewards: kl, returns: kl, advantages: kl, rewardIndex: kl.map(() => 0) },
              backend: fake.request ?? "?",
              millis: delayMs,
            },
          };
          completed++;
          await onResult(result);
        }
        return { completed, superseded: false, backend: fake.request ?? "?" };
      },
      simulateFault() {},
    };
    Comlink.expose(api, port2);
    const listen = port1.addEventListener.bind(port1);
    const worker = Object.assign(port1, {
      terminate() {
        fake.terminated = true;
        port1.close();
        port2.close();
      },
      addEventListener(type: string, listener: (event: never) => void) {
        if (type === "error") errorListeners.push(listener as (event: ErrorEvent) => void);
        else listen(type as "message", listener as never);
      },
    }) as unknown as Worker;
    fake.worker = worker;
    started.push(fake);
    return worker;
  };
  return { started, create };
}

function discounted(values: number[], discount = 0.9): ScanProblem {
  return {
    kind: "discounted",
    rewards: { rows: 1, cols: values.length, data: Float32Array.from(values) },
    discount,
    chunkSize: 4,
  };
}

function convention(kl: number[]): ConventionProblem {
  return {
    library: "verl",
    estimator: "reinforce_pp",
    batch: { rewards: [1], kl: [Float32Array.from(kl)], lossMasks: [kl.map(() => 1)] },
    params: { gamma: 1, klCoef: 0.1, normalize: false },
    chunkSize: 128,
  };
}

let client: EngineClient | undefined;

/**
 * The client's watchdog and the fake engine's delays run on a fake clock, so no outcome depends
 * on how busy the machine is: the clock moves one millisecond at a time, and only after ten turns
 * of the event loop, in which the real messages between client and worker (one turn a hop) arrive.
 */
let clock: { running: boolean; stopped: Promise<void> } | undefined;

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
  const state = { running: true, stopped: Promise.resolve() };
  state.stopped = (async () => {
    while (state.running) {
      for (let turn = 0; turn < 10; turn++) await new Promise<void>((resolve) => setImmediate(resolve));
      vi.advanceTimersByTime(1);
    }
  })();
  clock = state;
});

afterEach(async () => {
  client?.dispose();
  if (clock) {
    clock.running = false;
    await clock.stopped;
  }
  vi.useRealTimers();
});

describe("EngineClient", () => {
  it("runs chunked where the backend cannot run the strategy asked for, says so once, and reports what ran", async () => {
    const { create } = fakeWorkers();
    client = new EngineClient({ backend: "wasm", createWorker: create });
    const notices: EngineEvent[] = [];
    client.subscribe((event: EngineEvent) => {
      if (event.type !== "ready") notices.push(event);
    });
    const first = await client.runOutputs(discounted([1, 2]), "fused");
    expect(first.strategy).toBe("chunked");
    const outcome = await client.runProblems([discounted([3])], "fused");
    expect(outcome.strategy).toBe("chunked");
    expect(notices).toEqual([{ type: "strategy-replaced", asked: "fused", strategy: "chunked", backend: "wasm" }]);
    expect((await client.runOutputs(discounted([1]), "two-level")).strategy).toBe("two-level");
  });

  it("runs a list of problems in one request, results in order, input arrays transferred", async () => {
    const { create } = fakeWorkers();
    client = new EngineClient({ backend: "wasm", createWorker: create });
    const problems = [discounted([1, 2]), discounted([3])];
    const seen: number[] = [];
    const outcome = await client.runProblems(problems, "chunked", (r) => seen.push(r.index));
    expect(seen).toEqual([0, 1]);
    expect(outcome.report.backend).toBe("wasm");
    const first = outcome.results[0];
    expect(first.ok && Array.from(first.run.outputs.kind === "discounted" ? first.run.outputs.returns : [])).toEqual([
      1, 2,
    ]);
    // Transferred, not copied: the sender's array is detached.
    expect(problems[0].kind === "discounted" && problems[0].rewards.data.length).toBe(0);
  });

  it("asks for the chunk intermediates only where they are read: run has them, runOutputs leaves them out", async () => {
    const { create } = fakeWorkers();
    client = new EngineClient({ backend: "wasm", createWorker: create });
    expect((await client.run(discounted([1, 2]), "chunked")).trace.localScans.length).toBe(4);
    const outputsOnly = await client.runOutputs(discounted([1, 2]), "chunked");
    expect(outputsOnly.trace).toBeUndefined();
    expect(outputsOnly.outputs.kind === "discounted" && Array.from(outputsOnly.outputs.returns)).toEqual([1, 2]);
  });

  it("keeps a run's inputs in the worker: a run on the same arrays sends its parameters only, a new worker gets them", async () => {
    const { started, create } = fakeWorkers();
    client = new EngineClient({ backend: "wasm", createWorker: create });
    const returns = (run: Omit<EngineRun, "trace">) =>
      run.outputs.kind === "discounted" ? Array.from(run.outputs.returns) : [];
    type Discounted = Extract<ScanProblem, { kind: "discounted" }>;
    const problem = discounted([1, 2, 3]) as Discounted;
    expect(returns(await client.runOutputsKept(problem, "chunked"))).toEqual([1, 2, 3]);
    expect(returns(await client.runOutputsKept({ ...problem, discount: 0.5 }, "chunked"))).toEqual([1, 2, 3]);
    // Copied, not transferred: the caller's arrays are its own still.
    expect(Array.from(problem.rewards.data)).toEqual([1, 2, 3]);
    // Other arrays are sent, and kept in their place; a plain run leaves the kept ones alone.
    expect(returns(await client.runOutputsKept(discounted([4]), "chunked"))).toEqual([4]);
    expect(returns(await client.runOutputs(discounted([5, 6]), "chunked"))).toEqual([5, 6]);
    expect(returns(await client.runOutputsKept(discounted([4]), "chunked"))).toEqual([4]);
    expect(started[0].sent).toEqual([
      { inputs: "keep", lengths: [3], discounts: [0.9] },
      { inputs: "kept", lengths: [0], discounts: [0.5] },
      { inputs: "keep", lengths: [1], discounts: [0.9] },
      { inputs: undefined, lengths: [2], discounts: [0.9] },
      { inputs: "keep", lengths: [1], discounts: [0.9] },
    ]);
    // A worker started since (here a cancel's) is sent the arrays again.
    const same = discounted([7]) as Discounted;
    await client.runOutputsKept(same, "chunked");
    const pending = client.runOutputsKept({ ...same, discount: 0.8 }, "chunked");
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(client.cancel()).toBe(true);
    await expect(pending).rejects.toBeInstanceOf(CancelledError);
    expect(returns(await client.runOutputsKept({ ...same, discount: 0.7 }, "chunked"))).toEqual([7]);
    expect(started[1].sent).toEqual([{ inputs: "keep", lengths: [1], discounts: [0.7] }]);
  });

  it("answers a run once every result is in, not waiting for the worker's end of it", async () => {
    const { create } = fakeWorkers(20, 60_000);
    client = new EngineClient({ backend: "wasm", createWorker: create });
    const later = new Promise<"late">((resolve) => setTimeout(() => resolve("late"), 1_000));
    const run = client.runProblems([discounted([1]), discounted([2])], "chunked");
    const first = await Promise.race([run, later]);
    expect(first !== "late" && first.results.map((r) => r.index)).toEqual([0, 1]);
    expect(first !== "late" && first.backend).toBe("wasm");
    // The next request is not held up by the end of this one either.
    expect(await Promise.race([client.runOutputsKept(discounted([3]), "chunked"), later])).not.toBe("late");
  });

  it("re-creates a ScanInputError thrown in the worker, referenceType included", async () => {
    const { create } = fakeWorkers();
    client = new EngineClient({ createWorker: create });
    const error = await client.run(discounted([1], -1), "chunked").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ScanInputError);
    expect((error as ScanInputError).referenceText).toBe("AssertionError: discount is negative");
  });

  it("lets the latest request win: the older one rejects with SupersededError and reports nothing more", async () => {
    const { create } = fakeWorkers();
    client = new EngineClient({ createWorker: create });
    const late: number[] = [];
    const older = client.runProblems([discounted([1]), discounted([2]), discounted([3])], "chunked", (r) =>
      late.push(r.index),
    );
    await new Promise((resolve) => setTimeout(resolve, 30));
    const newer = client.runProblems([discounted([4])], "chunked");
    await expect(older).rejects.toBeInstanceOf(SupersededError);
    const countAtSupersede = late.length;
    const outcome = await newer;
    expect(outcome.results).toHaveLength(1);
    expect(late.length).toBe(countAtSupersede);
  });

  it("gives callers turns: another caller's request waits, the highest priority goes next, a caller replaces its own", async () => {
    const { create } = fakeWorkers(5);
    client = new EngineClient({ createWorker: create });
    const order: string[] = [];
    const ask = (name: string, priority: number, value: number) =>
      client
        ?.runProblems([discounted([value])], "chunked", undefined, {}, { name, priority })
        .then(() => order.push(`${name} ${value}`));
    const running = ask("conventions", 0, 1);
    const low = ask("other", 0, 2);
    const replaced = ask("scan", 1, 3);
    const high = ask("scan", 1, 4);
    await expect(replaced).rejects.toBeInstanceOf(SupersededError);
    await Promise.all([running, low, high]);
    expect(order).toEqual(["conventions 1", "scan 4", "other 2"]);
    // A caller's cancel stops its own request only, waiting or running.
    const ongoing = ask("conventions", 0, 5);
    const queued = ask("scan", 1, 6);
    expect(client.cancel({ name: "scan", priority: 1 })).toBe(true);
    await expect(queued).rejects.toBeInstanceOf(CancelledError);
    expect(client.cancel({ name: "scan", priority: 1 })).toBe(false);
    await ongoing;
    expect(order.at(-1)).toBe("conventions 5");
  });

  it("abandons a run that stops answering (a hung GPU keeps its device), restarting one backend down", async () => {
    // With a 50 ms fixed part, a one-token problem's deadline is 231 ms; this one answers after 600 ms.
    expect(problemDeadlineMs(discounted([1]), "chunked", 50)).toBe(231);
    const { started, create } = fakeWorkers(600);
    client = new EngineClient({ backend: "webgpu", createWorker: create, watchdogBaseMs: 50 });
    const events: EngineEvent[] = [];
    client.subscribe((e) => events.push(e));
    await client.ready();
    const error = await client.runProblems([discounted([1])], "chunked").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WorkerDiedError);
    expect((error as Error).message).toMatch(
      /^The engine worker on webgpu stopped \(no answer from the engine within 0\.\d s \(the GPU may have hung\); the run was abandoned\); restarting it on webgl\.$/,
    );
    expect(started[0].terminated).toBe(true);
    expect(events).toContainEqual({ type: "notice", message: (error as Error).message });
    expect((await client.ready()).backend).toBe("webgl");
  });

  it("gives each problem its own deadline: a long run that keeps answering is never abandoned", async () => {
    // Five problems of 200 ms each: 1 s in all, more than one deadline (231 ms), less than each.
    expect(problemDeadlineMs(discounted([1]), "chunked", 50)).toBe(231);
    const { started, create } = fakeWorkers(200);
    client = new EngineClient({ backend: "wasm", createWorker: create, watchdogBaseMs: 50 });
    const outcome = await client.runProblems(
      [1, 2, 3, 4, 5].map((x) => discounted([x])),
      "chunked",
    );
    expect(outcome.results).toHaveLength(5);
    expect(started).toHaveLength(1);
  });

  it("rejects every pending call when the worker dies and restarts one backend down, with a notice", async () => {
    const { started, create } = fakeWorkers(50);
    client = new EngineClient({ backend: "webgpu", createWorker: create });
    const events: EngineEvent[] = [];
    client.subscribe((e) => events.push(e));
    await client.ready();
    const pending = client.runProblems([discounted([1]), discounted([2])], "chunked");
    started[0].crash("out of memory");
    const error = await pending.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WorkerDiedError);
    expect((error as Error).message).toBe(
      "The engine worker on webgpu stopped (out of memory); restarting it on webgl.",
    );
    expect(started[0].terminated).toBe(true);
    expect(events).toContainEqual({ type: "notice", message: (error as Error).message });
    expect(client.requested).toBe("webgl");
    const report = await client.ready();
    expect(report.backend).toBe("webgl");
    expect(started).toHaveLength(2);
    const outcome = await client.runProblems([discounted([5])], "chunked");
    expect(outcome.results[0].ok && outcome.results[0].run.backend).toBe("webgl");
  });

  it("a backend change supersedes the run in progress and replaces the worker", async () => {
    const { started, create } = fakeWorkers(50);
    client = new EngineClient({ backend: "webgl", createWorker: create });
    const pending = client.runProblems([discounted([1])], "chunked");
    await client.ready();
    client.selectBackend("cpu");
    await expect(pending).rejects.toBeInstanceOf(SupersededError);
    expect(started[0].terminated).toBe(true);
    expect((await client.ready()).backend).toBe("cpu");
  });

  it("cancel stops the run in flight at once and starts a fresh worker on the same backend", async () => {
    const { started, create } = fakeWorkers(5_000);
    client = new EngineClient({ backend: "wasm", createWorker: create });
    await client.ready();
    expect(client.cancel()).toBe(false);
    const pending = client.runProblems([discounted([1])], "chunked");
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(client.cancel()).toBe(true);
    await expect(pending).rejects.toBeInstanceOf(CancelledError);
    expect(started[0].terminated).toBe(true);
    expect(started).toHaveLength(2);
    expect((await client.ready()).backend).toBe("wasm");
    expect(client.requested).toBe("wasm");
  });

  it("runs conventions in one request, in order, inputs transferred, and a convention run supersedes a scan run", async () => {
    const { create } = fakeWorkers();
    client = new EngineClient({ createWorker: create });
    const scans = client.runProblems([discounted([1]), discounted([2]), discounted([3])], "chunked");
    await new Promise((resolve) => setTimeout(resolve, 30));
    const problems = [convention([0.5, 0.25]), convention([2])];
    const seen: number[] = [];
    const conventions = client.runConventions(problems, "two-level", (r) => seen.push(r.index));
    await expect(scans).rejects.toBeInstanceOf(SupersededError);
    const outcome = await conventions;
    expect(seen).toEqual([0, 1]);
    const first = outcome.results[0];
    expect(first.ok && Array.from(first.run.result.returns[0])).toEqual([0.5, 0.25]);
    expect(problems[0].batch.kl[0].length).toBe(0);
    const run = await client.runConvention(convention([3]), "chunked");
    expect(Array.from(run.result.advantages[0])).toEqual([3]);
  });
});
