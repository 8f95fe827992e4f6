import { describe, expect, it } from "vitest";
import { chunkedDiscountedReturns } from "./chunkedScan";
import { chunkedGae } from "./gae";
import { reinforcePPReturns } from "./reinforcePP";
import { serialDiscountedReturns } from "./serialScan";
import { ScanInputError } from "./validation";

function errorOf(run: () => unknown): ScanInputError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ScanInputError);
    return error as ScanInputError;
  }
  throw new Error("expected a ScanInputError");
}

const batch = (rows: number, cols: number, values: number[]) => ({ rows, cols, data: Float32Array.from(values) });

describe("bad input gets a message that names the problem and where it is", () => {
  it("a fully masked sequence, in the reference's own words", () => {
    const error = errorOf(() =>
      reinforcePPReturns(
        { rewards: [1, 2], kl: [Float32Array.of(0.1, 0.2), Float32Array.of(0.3)], lossMasks: [[1, 0], [0]] },
        0.1,
        0.99,
      ),
    );
    expect(error.message).toBe("Sequence at index 1 is fully masked.");
    expect(error.referenceText).toBe("AssertionError: Sequence at index 1 is fully masked.");
  });

  it("a chunk size that is not a positive integer, or is beyond any kernel", () => {
    const zero = errorOf(() => chunkedDiscountedReturns(batch(1, 2, [1, 2]), 0.9, { chunkSize: 0 }));
    expect(zero.referenceText).toBe("ZeroDivisionError: integer modulo by zero");
    expect(errorOf(() => chunkedDiscountedReturns(batch(1, 2, [1, 2]), 0.9, { chunkSize: 2 ** 21 })).message).toBe(
      "chunk_size 2097152 is above the largest supported, 1048576",
    );
    for (const chunkSize of [-4, 2.5, Number.NaN]) {
      expect(errorOf(() => chunkedDiscountedReturns(batch(1, 2, [1, 2]), 0.9, { chunkSize })).message).toBe(
        `chunk_size must be a positive integer, got ${chunkSize}`,
      );
    }
  });

  it("non-finite values, with row and token", () => {
    expect(errorOf(() => chunkedDiscountedReturns(batch(2, 3, [1, 2, 3, 4, Number.NaN, 6]), 0.9)).message).toBe(
      "rewards has a non-finite value at row 1, token 1: NaN",
    );
    expect(errorOf(() => serialDiscountedReturns(batch(1, 2, [Number.POSITIVE_INFINITY, 0]), 0.9)).message).toBe(
      "rewards has a non-finite value at row 0, token 0: Infinity",
    );
    expect(
      errorOf(() => chunkedGae(batch(1, 2, [1, 2]), batch(1, 2, [0, Number.NEGATIVE_INFINITY]), 0.9, 0.9)).message,
    ).toBe("values has a non-finite value at row 0, token 1: -Infinity");
    expect(
      errorOf(() =>
        reinforcePPReturns({ rewards: [1], kl: [Float32Array.of(0, Number.NaN)], lossMasks: [[1, 1]] }, 0.1, 1),
      ).message,
    ).toBe("kl has a non-finite value at row 0, token 1: NaN");
    expect(errorOf(() => chunkedDiscountedReturns(batch(1, 1, [1]), Number.NaN)).message).toBe(
      "discount must be a finite number, got NaN",
    );
  });

  it("length mismatches between rewards, KL, masks and values", () => {
    expect(errorOf(() => chunkedGae(batch(1, 3, [1, 2, 3]), batch(1, 2, [1, 2]), 0.9, 0.9)).message).toBe(
      "values has shape [1, 2] but rewards has shape [1, 3]; they must match",
    );
    expect(
      errorOf(() => reinforcePPReturns({ rewards: [1], kl: [Float32Array.of(1, 2)], lossMasks: [[1]] }, 0.1, 1))
        .message,
    ).toBe("kl[0] has 2 tokens but loss_masks[0] has 1");
    expect(
      errorOf(() => reinforcePPReturns({ rewards: [1, 2], kl: [Float32Array.of(1)], lossMasks: [[1]] }, 0.1, 1))
        .message,
    ).toBe("rewards, kl and loss_masks must have one entry per sequence, got 2, 1 and 1");
    expect(
      errorOf(() => reinforcePPReturns({ rewards: [1], kl: [Float32Array.of(1, 2)], lossMasks: [[1, 0.5]] }, 0.1, 1))
        .message,
    ).toBe("loss_masks[0] has 0.5 at token 1; a mask is 0 or 1");
  });

  it("wrong shapes", () => {
    expect(errorOf(() => chunkedDiscountedReturns(batch(2, 3, [1, 2, 3]), 0.9)).message).toBe(
      "rewards has 3 values but its shape [2, 3] needs 6",
    );
    expect(errorOf(() => serialDiscountedReturns(batch(-1, 3, []), 0.9)).message).toBe(
      "rewards must have a shape of two non-negative integers, got [-1, 3]",
    );
  });
});
