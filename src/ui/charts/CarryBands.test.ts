import { describe, expect, it } from "vitest";
import { gapsAndRange } from "../../compute/playground/carryRow";
import { bandPath, type CarryParts, carryRuns, carryStride, localPath } from "./CarryBands";

const x = (t: unknown) => 10 * (t as number);
const y = (v: unknown) => 100 - (v as number);

/** Parts with their gaps and range found as the split finds them. */
function partsOf(local: number[], carried: number[], total: number[], chunkStarts: number[]): CarryParts {
  return { local, carried, total, chunkStarts, ...gapsAndRange(Float64Array.from(local), Float64Array.from(total)) };
}

/** The runs by their definition, token by token: what carryRuns gives without walking the row. */
function runsByToken(parts: CarryParts, length: number, stride: number): number[][] {
  const runs: number[][] = [];
  const edges = [0, ...parts.chunkStarts.filter((t) => t > 0 && t < length), length];
  const finite = (t: number) => Number.isFinite(parts.local[t]) && Number.isFinite(parts.total[t]);
  for (let c = 0; c + 1 < edges.length; c++) {
    let run: number[] = [];
    const end = edges[c + 1] - 1;
    for (let t = edges[c]; t <= end; t++) {
      if (!finite(t)) {
        if (run.length) runs.push(run);
        run = [];
      } else if (run.length === 0 || (t - edges[c]) % stride === 0 || t === end || !finite(t + 1)) run.push(t);
    }
    if (run.length) runs.push(run);
  }
  return runs;
}

describe("carry bands", () => {
  // 7 tokens in chunks {0}, {1, 2, 3}, {4, 5, 6} (a batch of 7 with C = 3: the short chunk first).
  const parts = partsOf([1, 2, 3, 4, 5, 6, 7], [10, 20, 20, 20, 0, 0, 0], [11, 22, 23, 24, 5, 6, 7], [0, 1, 4]);

  it("keeps each band inside its chunk, a lone token included", () => {
    expect(carryRuns(parts, 7, 1)).toEqual([[0], [1, 2, 3], [4, 5, 6]]);
    // A short row of a longer batch: chunks past its length are not drawn.
    expect(carryRuns(parts, 3, 1)).toEqual([[0], [1, 2]]);
  });

  it("samples long chunks every stride tokens, keeping their ends, and cuts them at NaN or ∞", () => {
    const ramp = Array.from({ length: 10 }, (_, t) => t);
    const long = partsOf(ramp, new Array<number>(10).fill(0), ramp, [0]);
    expect(carryRuns(long, 10, 4)).toEqual([[0, 4, 8, 9]]);
    const broken = partsOf(
      ramp,
      long.carried as number[],
      ramp.map((v) => (v === 5 ? Number.NaN : v)),
      [0],
    );
    expect(carryRuns(broken, 10, 1)).toEqual([
      [0, 1, 2, 3, 4],
      [6, 7, 8, 9],
    ]);
    expect(carryStride(8192, 400)).toBe(21);
    expect(carryStride(40, 400)).toBe(1);
  });

  it("gives the runs of their token-by-token definition, whatever the chunks, gaps and stride", () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 48271) % 2147483647;
      return seed / 2147483647;
    };
    for (let trial = 0; trial < 200; trial++) {
      const n = 1 + Math.floor(random() * 60);
      const local = Array.from({ length: n }, () => (random() < 0.15 ? Number.NaN : random()));
      const total = local.map((v) => (random() < 0.1 ? Number.POSITIVE_INFINITY : v + 1));
      const chunk = 1 + Math.floor(random() * 9);
      const starts = Array.from({ length: Math.ceil(n / chunk) }, (_, c) => Math.max(0, n - (c + 1) * chunk)).reverse();
      const p = partsOf(local, local, total, starts);
      const length = 1 + Math.floor(random() * n);
      const stride = 1 + Math.floor(random() * 5);
      expect(carryRuns(p, length, stride), `trial ${trial}`).toEqual(runsByToken(p, length, stride));
    }
    expect(partsOf([1, Number.NaN, -2], [0, 0, 0], [1, 1, Number.NaN], [0]).localRange).toEqual([-2, 1]);
    expect(partsOf([Number.NaN], [0], [1], [0]).localRange).toBe(null);
  });

  it("draws each run along the total and back along the local sum; the local line restarts per chunk", () => {
    const runs = carryRuns(parts, 7, 1);
    expect(bandPath(runs, parts, x, y)).toBe(
      "M0,89L0,99Z" + "M10,78L20,77L30,76L30,96L20,97L10,98Z" + "M40,95L50,94L60,93L60,93L50,94L40,95Z",
    );
    expect(localPath(runs, parts, x, y)).toBe("M0,99h0M10,98L20,97L30,96M40,95L50,94L60,93");
  });
});
