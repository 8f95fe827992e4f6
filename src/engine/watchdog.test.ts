import { describe, expect, it } from "vitest";
import type { ScanProblem } from "../core";
import { problemDeadlineMs, WATCHDOG_BASE_MS } from "./watchdog";

function batch(rows: number, tokens: number, chunkSize: number): ScanProblem {
  return { kind: "discounted", rewards: { rows, cols: tokens, data: new Float32Array(0) }, discount: 0.99, chunkSize };
}

describe("the watchdog's deadline grows with the problem", () => {
  it("gives a teaching-size problem the fixed part and little more", () => {
    const ms = problemDeadlineMs(batch(4, 300, 128), "chunked");
    expect(ms).toBeGreaterThanOrEqual(WATCHDOG_BASE_MS);
    expect(ms).toBeLessThan(WATCHDOG_BASE_MS + 1000);
  });

  it("gives 64 × 32768 tokens room for its dispatches and its multiply-adds, per-token most", () => {
    const chunked = problemDeadlineMs(batch(64, 32768, 128), "chunked");
    expect(chunked).toBe(Math.ceil(WATCHDOG_BASE_MS + (256 + 8) * 20 + 64 * 32768 * 128 * 5e-4));
    expect(problemDeadlineMs(batch(64, 32768, 128), "per-token")).toBeGreaterThan(chunked + 600_000);
  });

  it("counts a ragged batch by its longest row", () => {
    const ragged: ScanProblem = {
      kind: "reinforce_pp",
      batch: { rewards: [1, 1], kl: [new Float32Array(10), new Float32Array(5000)], lossMasks: [[], []] },
      klCoef: 0,
      gamma: 1,
      chunkSize: 64,
    };
    expect(problemDeadlineMs(ragged, "chunked")).toBe(problemDeadlineMs(batch(2, 5000, 64), "chunked"));
  });
});
