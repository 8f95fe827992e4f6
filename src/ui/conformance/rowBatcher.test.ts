import { afterEach, describe, expect, it, vi } from "vitest";
import { RowBatcher } from "./rowBatcher";

describe("row batcher", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("hands over everything that arrived within an interval in one batch", () => {
    vi.useFakeTimers();
    const batches: number[][] = [];
    const batcher = new RowBatcher<number>((batch) => batches.push(batch), 100);
    for (let i = 0; i < 1000; i++) batcher.add(i);
    expect(batches).toEqual([]);
    vi.advanceTimersByTime(100);
    expect(batches).toHaveLength(1);
    expect(batches[0]).toHaveLength(1000);
    batcher.add(1000);
    vi.advanceTimersByTime(99);
    expect(batches).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(batches[1]).toEqual([1000]);
  });

  it("flushes at once on request, and a cancelled batch is never delivered", () => {
    vi.useFakeTimers();
    const batches: number[][] = [];
    const batcher = new RowBatcher<number>((batch) => batches.push(batch), 100);
    batcher.add(1);
    batcher.flush();
    expect(batches).toEqual([[1]]);
    batcher.add(2);
    batcher.cancel();
    vi.advanceTimersByTime(1000);
    batcher.flush();
    expect(batches).toEqual([[1]]);
  });
});
