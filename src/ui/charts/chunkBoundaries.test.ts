import { describe, expect, it } from "vitest";
import { chunkOfToken, chunkStarts, drawableBoundaries } from "./chunkBoundaries";

describe("chunkStarts", () => {
  it("puts the short chunk at the start of the sequence", () => {
    // ALGORITHM.md b.4: T = 129, C = 128: chunk 0 covers t = 1…128, chunk 1 covers t = 0.
    expect(chunkStarts(129, 128)).toEqual([0, 1]);
    expect(chunkStarts(300, 128)).toEqual([0, 44, 172]);
    expect(chunkStarts(256, 128)).toEqual([0, 128]);
    expect(chunkStarts(5, 128)).toEqual([0]);
    expect(chunkStarts(0, 128)).toEqual([]);
  });

  it("numbers chunks from the end", () => {
    const starts = chunkStarts(300, 128);
    expect(chunkOfToken(starts, 299)).toBe(0);
    expect(chunkOfToken(starts, 172)).toBe(0);
    expect(chunkOfToken(starts, 171)).toBe(1);
    expect(chunkOfToken(starts, 44)).toBe(1);
    expect(chunkOfToken(starts, 43)).toBe(2);
    expect(chunkOfToken(starts, 0)).toBe(2);
    expect(chunkOfToken([1], 0)).toBe(1); // a list without the 0 start counts the same
  });
});

describe("drawableBoundaries", () => {
  it("drops the line at 0 and keeps the rest when they are far enough apart", () => {
    expect(drawableBoundaries([0, 44, 172], 300, 600)).toEqual({ lines: [44, 172], tooDense: false, crowded: false });
  });

  it("gives up when chunks are narrower than a few pixels", () => {
    const starts = chunkStarts(8192, 8);
    expect(drawableBoundaries(starts, 8192, 800)).toEqual({ lines: [], tooDense: true, crowded: true });
    const every128 = drawableBoundaries(chunkStarts(8192, 128), 8192, 800);
    expect(every128.lines).toHaveLength(63);
    expect(every128.crowded).toBe(true); // 12.5 px apart: drawn fainter
  });
});
