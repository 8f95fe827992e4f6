import { describe, expect, it } from "vitest";
import { BinKind, poolByMax, pooledDomain, worstBin, worstCell } from "./pooling";

describe("poolByMax", () => {
  it("keeps a single spike among many tokens per pixel", () => {
    const cols = 1000;
    const error = new Float64Array(cols).fill(1e-8);
    error[537] = 3e-4;
    const grid = poolByMax({ rows: 1, cols, lengths: [cols], error, maxBinsX: 100, maxBinsY: 10 });
    expect(grid.binsX).toBe(100);
    expect(grid.tokensPerBin).toBe(10);
    expect(grid.value[53]).toBe(3e-4);
    expect(grid.worst[53]).toBe(537);
    expect(Math.max(...grid.value)).toBe(3e-4);
    expect(grid.value[52]).toBe(1e-8);
  });

  it("marks NaN and infinite cells as their own kind, NaN as the worst", () => {
    const error = [1e-7, Number.POSITIVE_INFINITY, 2e-7, Number.NaN, 5e-7, 1e-9];
    const grid = poolByMax({ rows: 1, cols: 6, lengths: [6], error, maxBinsX: 3, maxBinsY: 1 });
    expect(Array.from(grid.kind)).toEqual([BinKind.nonFinite, BinKind.nonFinite, BinKind.data]);
    expect(grid.value[0]).toBe(1e-7); // finite part still coloured under the marker
    expect(grid.worst[1]).toBe(3);
    expect(grid.worst[0]).toBe(1);
  });

  it("tells cells only the chunked scan lost from cells both scans lost, the first outranking", () => {
    // The serial reference is NaN at tokens 0–1 only; the chunked scan lost tokens 0–3.
    const lost = [1, 1, 0, 0, 0, 0];
    const error = [Number.NaN, Number.NaN, Number.NaN, Number.NaN, 1e-7, 0];
    const pool = (maxBinsX: number) =>
      Array.from(poolByMax({ rows: 1, cols: 6, lengths: [6], error, lost, maxBinsX, maxBinsY: 1 }).kind);
    const { nonFinite, chunkedOnlyNonFinite: only, data } = BinKind;
    expect(pool(6)).toEqual([nonFinite, nonFinite, only, only, data, data]);
    expect(pool(3)).toEqual([nonFinite, only, data]);
    expect(pool(2)).toEqual([only, only]);
    // +∞ in both: 0 apart, still lost by both scans.
    const both = poolByMax({
      rows: 1,
      cols: 2,
      lengths: [2],
      error: [0, 0],
      lost: [1, 0],
      maxBinsX: 2,
      maxBinsY: 1,
    });
    expect(Array.from(both.kind)).toEqual([nonFinite, data]);
  });

  it("tracks padding, masked bins and cells over bound", () => {
    // 2 rows × 4 tokens, row 1 has 1 valid token; masks hide tokens 0 and 1 of row 0.
    const error = [1, 2, 3, 4, 5, 99, 99, 99];
    const lossMask = [0, 0, 1, 0, 1, 1, 1, 1];
    const overBound = [0, 0, 0, 1, 0, 0, 0, 0];
    const grid = poolByMax({ rows: 2, cols: 4, lengths: [4, 1], error, lossMask, overBound, maxBinsX: 2, maxBinsY: 2 });
    expect(Array.from(grid.kind)).toEqual([BinKind.data, BinKind.data, BinKind.data, BinKind.padding]);
    expect(Array.from(grid.value)).toEqual([2, 4, 5, 0]); // padding garbage never counts
    expect(Array.from(grid.masked)).toEqual([1, 1, 0, 0]); // half or more of the valid cells masked
    expect(Array.from(grid.overBound)).toEqual([0, 1, 0, 0]);
    expect(grid.worst[3]).toBe(-1);
  });

  it("pools rows too when they outnumber the pixels, and never pools below one cell per bin", () => {
    const rows = 10;
    const error = new Float64Array(rows * 3);
    error[7 * 3 + 2] = 1;
    const grid = poolByMax({ rows, cols: 3, lengths: new Array(rows).fill(3), error, maxBinsX: 50, maxBinsY: 4 });
    expect(grid.binsX).toBe(3);
    expect(grid.binsY).toBe(4);
    expect(grid.rowsPerBin).toBe(3);
    const binRow = Array.from(grid.rowStart).findIndex((start, i) => start <= 7 && grid.rowStart[i + 1] > 7);
    expect(grid.value[binRow * 3 + 2]).toBe(1);
  });

  it("copes with an empty batch", () => {
    const grid = poolByMax({ rows: 1, cols: 0, lengths: [0], error: [], maxBinsX: 100, maxBinsY: 10 });
    expect(Array.from(grid.kind)).toEqual([BinKind.padding]);
    expect(pooledDomain(grid)).toEqual({ min: 0, max: 0 });
    expect(worstBin(grid)).toBe(-1);
  });

  it("finds the domain over data bins only", () => {
    const error = [0, 1e-9, 5e-6, 7, 0, 0];
    const grid = poolByMax({ rows: 2, cols: 3, lengths: [3, 0], error, maxBinsX: 3, maxBinsY: 2 });
    expect(pooledDomain(grid)).toEqual({ min: 1e-9, max: 5e-6 });
    expect(pooledDomain(grid, [1, 2])).toEqual({ min: 0, max: 0 });
  });
});

describe("worstBin", () => {
  it("points at the largest finite error, and at none when all are exact", () => {
    const grid = (error: number[]) => poolByMax({ rows: 1, cols: 4, lengths: [4], error, maxBinsX: 4, maxBinsY: 1 });
    expect(worstBin(grid([1e-7, 3e-6, 2e-6, 0]))).toBe(1);
    expect(worstBin(grid([1e-7, 3e-6, Number.NaN, 5e-6]))).toBe(3);
    expect(worstBin(grid([0, 0, 0, 0]))).toBe(-1);
  });
});

/** poolByMax as its definition reads, cell by cell into its bin (the order the pass visits them). */
function poolNaively(input: Parameters<typeof poolByMax>[0]) {
  const { rows, cols, lengths, error, lost, overBound, unchecked, lossMask } = input;
  const binsX = Math.max(1, Math.min(cols, Math.floor(input.maxBinsX)));
  const binsY = Math.max(1, Math.min(rows, Math.floor(input.maxBinsY)));
  const colBin = (t: number) => {
    let b = 0;
    while (Math.floor(((b + 1) * cols) / binsX) <= t) b++;
    return b;
  };
  const rowBin = (r: number) => {
    let b = 0;
    while (Math.floor(((b + 1) * rows) / binsY) <= r) b++;
    return b;
  };
  const n = binsX * binsY;
  const value = new Array(n).fill(0);
  const kind = new Array(n).fill(BinKind.padding);
  const worst = new Array(n).fill(-1);
  const over = new Array(n).fill(0);
  const notChecked = new Array(n).fill(0);
  const valid = new Array(n).fill(0);
  const maskedN = new Array(n).fill(0);
  const isWorse = (a: number, b: number) => !Number.isNaN(b) && (Number.isNaN(a) || a > b);
  for (let r = 0; r < rows; r++) {
    for (let t = 0; t < Math.min(cols, lengths[r]); t++) {
      const i = r * cols + t;
      const b = rowBin(r) * binsX + colBin(t);
      const e = error[i];
      valid[b]++;
      if (lossMask?.[i] === 0) maskedN[b]++;
      if (overBound?.[i]) over[b] = 1;
      if (unchecked?.[i]) notChecked[b] = 1;
      if (worst[b] < 0 || isWorse(e, error[worst[b]])) worst[b] = i;
      if (Number.isFinite(e)) value[b] = Math.max(value[b], e);
      const both = lost?.[i] === 1;
      if (!Number.isFinite(e) && !both && lost) kind[b] = BinKind.chunkedOnlyNonFinite;
      else if ((both || !Number.isFinite(e)) && kind[b] !== BinKind.chunkedOnlyNonFinite) kind[b] = BinKind.nonFinite;
    }
  }
  for (let b = 0; b < n; b++) if (valid[b] > 0 && kind[b] === BinKind.padding) kind[b] = BinKind.data;
  const masked = maskedN.map((m, b) => (valid[b] > 0 && 2 * m >= valid[b] ? 1 : 0));
  return { value, kind, worst, overBound: over, unchecked: notChecked, masked };
}

describe("poolByMax against its definition", () => {
  it("pools ragged rows with NaN, ±∞, lost cells, masks and bounds exactly as cell by cell", () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const rows = 9;
    const cols = 37;
    const lengths = Array.from({ length: rows }, (_, r) => (r === 3 ? 0 : Math.floor(random() * (cols + 1))));
    const specials = [Number.NaN, Number.POSITIVE_INFINITY, 0];
    const error = Array.from({ length: rows * cols }, () =>
      random() < 0.1 ? specials[Math.floor(random() * 3)] : random() * 10 ** -Math.floor(random() * 8),
    );
    const lost = error.map((e) => (!Number.isFinite(e) && random() < 0.5 ? 1 : e === 0 && random() < 0.1 ? 1 : 0));
    const overBound = error.map(() => (random() < 0.05 ? 1 : 0));
    const unchecked = error.map((_, i) => (overBound[i] === 0 && random() < 0.05 ? 1 : 0));
    const lossMask = error.map(() => (random() < 0.4 ? 0 : 1));
    for (const [maxBinsX, maxBinsY] of [
      [37, 9],
      [5, 2],
      [1, 1],
      [12, 4],
      [100, 100],
      [36, 8],
    ]) {
      for (const withLost of [true, false]) {
        const input = {
          rows,
          cols,
          lengths,
          error,
          lost: withLost ? lost : undefined,
          overBound,
          unchecked,
          lossMask,
          maxBinsX,
          maxBinsY,
        };
        const grid = poolByMax(input);
        const want = poolNaively(input);
        const at = `${maxBinsX}×${maxBinsY}${withLost ? " with lost" : ""}`;
        expect(Array.from(grid.value), at).toEqual(want.value);
        expect(Array.from(grid.kind), at).toEqual(want.kind);
        expect(Array.from(grid.worst), at).toEqual(want.worst);
        expect(Array.from(grid.overBound), at).toEqual(want.overBound);
        expect(Array.from(grid.unchecked), at).toEqual(want.unchecked);
        expect(Array.from(grid.masked), at).toEqual(want.masked);
        // The same rows handed over one at a time in one reused scratch row (the run worker's way),
        // from an offset, NaN before it: the same grid, its worst cells indexed in the padded batch.
        const scratch = { error: new Float64Array(cols + 3), lost: new Uint8Array(cols + 3) };
        const others = {
          overBound: new Uint8Array(cols + 3),
          unchecked: new Uint8Array(cols + 3),
          lossMask: new Uint8Array(cols + 3),
        };
        const byRow = poolByMax({
          ...input,
          error: [],
          row: (r) => {
            scratch.error.fill(Number.NaN);
            for (let t = 0; t < cols; t++) {
              scratch.error[3 + t] = error[r * cols + t];
              scratch.lost[3 + t] = lost[r * cols + t];
              others.overBound[3 + t] = overBound[r * cols + t];
              others.unchecked[3 + t] = unchecked[r * cols + t];
              others.lossMask[3 + t] = lossMask[r * cols + t];
            }
            return { base: 3, ...scratch, lost: withLost ? scratch.lost : undefined, ...others };
          },
        });
        expect(byRow, at).toEqual(grid);
      }
    }
  });
});

describe("worstCell", () => {
  it("prefers non-finite, skips padding", () => {
    expect(worstCell(2, 2, [2, 1], [1, 2, 3, 1e9])).toEqual({ row: 1, token: 0, error: 3 });
    expect(worstCell(1, 3, [3], [1, Number.POSITIVE_INFINITY, Number.NaN])).toMatchObject({ token: 2 });
    expect(worstCell(1, 3, [0], [1, 2, 3])).toBeNull();
  });
});
