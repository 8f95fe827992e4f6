import { describe, expect, it } from "vitest";
import { answer, finishNow, finishSliced, type Sliced } from "./slices";

function* sum(values: (number | Promise<number>)[]): Sliced<number> {
  let total = 0;
  for (const v of values) {
    total += yield* answer(v);
    yield;
  }
  return total;
}

describe("sliced computations", () => {
  it("finish at once when every value is here, and refuse to wait for a promise", () => {
    expect(finishNow(sum([1, 2, 3]))).toBe(6);
    expect(() => finishNow(sum([1, Promise.resolve(2)]))).toThrow(/waits for a promise/);
  });

  it("pause between slices, pass back what promises resolve to, and throw their rejections inside", async () => {
    let pauses = 0;
    const pause = async () => {
      pauses++;
    };
    expect(await finishSliced(sum([1, Promise.resolve(2), 3]), pause)).toBe(6);
    expect(pauses).toBe(3);
    function* guarded(): Sliced<string> {
      try {
        yield* answer(Promise.reject(new Error("worker died")));
        return "no";
      } catch (error) {
        return (error as Error).message;
      }
    }
    expect(await finishSliced(guarded(), pause)).toBe("worker died");
  });

  it("stop when a pause throws, running the computation's finally blocks", async () => {
    const log: string[] = [];
    function* work(): Sliced<void> {
      try {
        yield;
        log.push("after the pause");
      } finally {
        log.push("cleaned up");
      }
    }
    await expect(
      finishSliced(work(), async () => {
        throw new Error("superseded");
      }),
    ).rejects.toThrow("superseded");
    expect(log).toEqual(["cleaned up"]);
  });
});
