import { describe, expect, it } from "vitest";
import { bandPath, carryRuns, carryStride, localPath } from "./CarryBands";

const x = (t: unknown) => 10 * (t as number);
const y = (v: unknown) => 100 - (v as number);

describe("carry bands", () => {
  // 7 tokens in chunks {0}, {1, 2, 3}, {4, 5, 6} (a batch of 7 with C = 3: the short chunk first).
  const parts = {
    local: [1, 2, 3, 4, 5, 6, 7],
    carried: [10, 20, 20, 20, 0, 0, 0],
    total: [11, 22, 23, 24, 5, 6, 7],
    chunkStarts: [0, 1, 4],
  };

  it("keeps each band inside its chunk, a lone token included", () => {
    expect(carryRuns(parts, 7, 1)).toEqual([[0], [1, 2, 3], [4, 5, 6]]);
    // A short row of a longer batch: chunks past its length are not drawn.
    expect(carryRuns(parts, 3, 1)).toEqual([[0], [1, 2]]);
  });

  it("samples long chunks every stride tokens, keeping their ends, and cuts them at NaN or ∞", () => {
    const ramp = Array.from({ length: 10 }, (_, t) => t);
    const long = { local: ramp, carried: new Array<number>(10).fill(0), total: ramp, chunkStarts: [0] };
    expect(carryRuns(long, 10, 4)).toEqual([[0, 4, 8, 9]]);
    const broken = { ...long, total: long.local.map((v) => (v === 5 ? Number.NaN : v)) };
    expect(carryRuns(broken, 10, 1)).toEqual([
      [0, 1, 2, 3, 4],
      [6, 7, 8, 9],
    ]);
    expect(carryStride(8192, 400)).toBe(21);
    expect(carryStride(40, 400)).toBe(1);
  });

  it("draws each run along the total and back along the local sum; the local line restarts per chunk", () => {
    const runs = carryRuns(parts, 7, 1);
    expect(bandPath(runs, parts, x, y)).toBe(
      "M0,89L0,99Z" + "M10,78L20,77L30,76L30,96L20,97L10,98Z" + "M40,95L50,94L60,93L60,93L50,94L40,95Z",
    );
    expect(localPath(runs, parts, x, y)).toBe("M0,99h0M10,98L20,97L30,96M40,95L50,94L60,93");
  });
});
