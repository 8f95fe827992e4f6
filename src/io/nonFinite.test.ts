import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { describeNonFinite, findNonFinite, nonFiniteSpread, spreadLesson } from "./nonFinite";

const seed = Number(process.env.SCANLAB_FC_SEED ?? 20261130);

/** The serial loop, in IEEE float64: a NaN stays a NaN through every multiply-add. */
function serial(x: number[], gamma: number): number[] {
  const out = new Array<number>(x.length);
  let next = 0;
  for (let t = x.length - 1; t >= 0; t--) {
    next = x[t] + gamma * next;
    out[t] = next;
  }
  return out;
}

/**
 * slime's chunked scan written out as the GEMM does it, every product of the chunk times the
 * Toeplitz matrix included (the zeros below the diagonal too), then the carries; original time back.
 */
function chunked(x: number[], gamma: number, C: number): number[] {
  const reversed = [...x].reverse();
  const padded = Math.ceil(x.length / C) * C;
  while (reversed.length < padded) reversed.push(0);
  const out = new Array<number>(padded);
  let carry = 0;
  for (let c = 0; c < padded / C; c++) {
    for (let k = 0; k < C; k++) {
      let local = 0;
      for (let i = 0; i < C; i++) local += reversed[c * C + i] * (k >= i ? gamma ** (k - i) : 0);
      out[c * C + k] = local + gamma ** (k + 1) * carry;
    }
    carry = out[c * C + C - 1];
  }
  return out.slice(0, x.length).reverse();
}

const lastNonFinite = (values: number[]) => values.reduce((last, v, t) => (Number.isFinite(v) ? last : t), -1);

describe("non-finite inputs", () => {
  it("are found by row and token, and named in one sentence", () => {
    const cells = findNonFinite([[1, Number.NaN, 2], [], [Number.POSITIVE_INFINITY, 0, Number.NEGATIVE_INFINITY]]);
    expect(cells).toEqual([
      { row: 0, token: 1, value: Number.NaN },
      { row: 2, token: 0, value: Number.POSITIVE_INFINITY },
      { row: 2, token: 2, value: Number.NEGATIVE_INFINITY },
    ]);
    expect(describeNonFinite(cells, "rewards", 2)).toBe(
      "rewards: NaN at row 0, token 1; Infinity at row 2, token 0 (and 1 more)",
    );
  });

  it("spread as predicted: the serial loop backwards only, the chunked scan over the chunk and through the carries", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 1, max: 12 }),
        fc.array(fc.nat(), { minLength: 1, maxLength: 3 }),
        fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY),
        fc.constantFrom(0.5, 0.99, 1),
        (length, C, at, bad, gamma) => {
          const tokens = at.map((t) => t % length);
          const x = Array.from({ length }, (_, t) => (tokens.includes(t) ? bad : Math.sin(t + 1)));
          const spread = nonFiniteSpread(length, C, tokens);
          expect(lastNonFinite(serial(x, gamma))).toBe(spread.serialLast);
          expect(lastNonFinite(chunked(x, gamma, C))).toBe(spread.chunkedLast);
          // Everything up to the last poisoned token is poisoned: the range has no holes.
          expect(
            chunked(x, gamma, C)
              .slice(0, spread.chunkedLast + 1)
              .every((v) => !Number.isFinite(v)),
          ).toBe(true);
        },
      ),
      { seed, numRuns: 200 },
    );
  });

  it("say how many tokens the chunked scan loses that the serial loop keeps", () => {
    // 10 tokens in chunks of 4: token 5 is reversed position 4, the first of the second chunk, which ends at token 5;
    // token 3 is reversed position 6, in the same chunk, so the chunked scan also loses tokens 4 and 5.
    const spread = nonFiniteSpread(10, 4, [5]);
    expect(spread).toEqual({ serialLast: 5, chunkedLast: 5 });
    expect(nonFiniteSpread(10, 4, [3])).toEqual({ serialLast: 3, chunkedLast: 5 });
    expect(spreadLesson(nonFiniteSpread(10, 4, [3]), 4)).toMatch(
      /tokens 0–5: .* tokens 0–3 only, so 2 tokens after it differ\.$/,
    );
    expect(spreadLesson(spread, 4)).toBe(
      "A non-finite input poisons tokens 0–5 in both scans: the serial loop carries it back to tokens 0–5 only.",
    );
  });
});
