import { describe, expect, it } from "vitest";
import { chunkedDiscountedReturns, chunkLayout } from "./chunkedScan";

describe("chunk layout and trace", () => {
  it("pads the reversed row so the partial chunk holds the start of the sequence", () => {
    expect(chunkLayout(129, 128)).toEqual({ chunkSize: 128, nChunks: 2, pad: 127 });
    expect(chunkLayout(128, 128)).toEqual({ chunkSize: 128, nChunks: 1, pad: 0 });
    expect(chunkLayout(1, 128)).toEqual({ chunkSize: 128, nChunks: 1, pad: 127 });
    expect(chunkLayout(5, 1)).toEqual({ chunkSize: 1, nChunks: 5, pad: 0 });
    expect(chunkLayout(0, 4)).toEqual({ chunkSize: 4, nChunks: 0, pad: 0 });
  });

  it("records each chunk's local scan and the carry that entered it", () => {
    // r = [1, 2, 3, 4, 5], d = 0.5, C = 2: reversed x = [5, 4, 3, 2, 1], chunks [5,4] [3,2] [1,·].
    const rewards = { rows: 1, cols: 5, data: Float64Array.of(1, 2, 3, 4, 5) };
    const { returns, trace } = chunkedDiscountedReturns(rewards, 0.5, { chunkSize: 2 });
    expect(trace).toMatchObject({ chunkSize: 2, nChunks: 3, pad: 1 });
    expect(Array.from(trace.localScans)).toEqual([5, 6.5, 3, 3.5, 1, 0.5]);
    // Carry into chunk 1 is G at reversed index 1 = 6.5; into chunk 2 it is 3.5 + 0.25·6.5 = 5.125.
    expect(Array.from(trace.carriesIn)).toEqual([0, 6.5, 5.125]);
    expect(Array.from(returns.data)).toEqual([3.5625, 5.125, 6.25, 6.5, 5]);
  });
});
