import { describe, expect, it } from "vitest";
import { cpLayout } from "./layout";
import { cpLocalLength } from "./localLength";

describe("cpLocalLength", () => {
  it("equals cpLayout's localLength for every rank, cp_size 1–8 and every sample of fewer than 80 tokens", () => {
    let checked = 0;
    for (let n = 1; n <= 8; n++) {
      for (let T = 2; T < 80; T++) {
        for (let R = 1; R < T; R++) {
          const layout = cpLayout(T, R, n);
          for (let r = 0; r < n; r++) {
            expect(cpLocalLength(T, R, n, r)).toBe(layout.ranks[r].localLength);
            checked++;
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(100_000);
  });

  it("gives every rank nothing of a sample without a response", () => {
    expect([0, 1, 2].map((r) => cpLocalLength(10, 0, 3, r))).toEqual([0, 0, 0]);
  });
});
