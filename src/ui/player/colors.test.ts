import { expect, it } from "vitest";
import { errorFill, NON_FINITE_FILL } from "./colors";

it("draws a NaN error as unmeasured, even where every measured error is exactly 0", () => {
  expect(errorFill(Number.NaN, undefined)).toBe(NON_FINITE_FILL);
  expect(errorFill(Number.POSITIVE_INFINITY, { lo: -8, hi: -6 })).toBe(NON_FINITE_FILL);
  expect(errorFill(0, undefined)).not.toBe(NON_FINITE_FILL);
});
