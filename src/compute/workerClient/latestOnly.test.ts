import { describe, expect, it } from "vitest";
import { SupersededError } from "../../engine/client";
import { LatestOnly } from "./latestOnly";

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

describe("LatestOnly", () => {
  it("runs the newest waiting task after the running one and drops the ones between", async () => {
    const runner = new LatestOnly<number>();
    const started: number[] = [];
    const first = deferred<number>();
    const a = runner.run(() => {
      started.push(1);
      return first.promise;
    });
    const b = runner.run(async () => {
      started.push(2);
      return 2;
    });
    const c = runner.run(async () => {
      started.push(3);
      return 3;
    });
    await expect(b).rejects.toBeInstanceOf(SupersededError);
    first.resolve(1);
    expect(await a).toBe(1);
    expect(await c).toBe(3);
    expect(started).toEqual([1, 3]);
  });

  it("keeps going after a task fails", async () => {
    const runner = new LatestOnly<number>();
    await expect(runner.run(() => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(await runner.run(async () => 5)).toBe(5);
  });
});
