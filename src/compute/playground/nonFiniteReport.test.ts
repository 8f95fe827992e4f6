import { describe, expect, it } from "vitest";
import { nonFiniteInputNote, nonFiniteLesson, scannedNonFiniteTokens } from "./nonFiniteReport";

const row = (rewards: number[], values?: number[]) => ({
  length: rewards.length,
  rewards,
  ...(values ? { values } : {}),
});

describe("non-finite inputs in the playground", () => {
  it("are named by lane, row and token, only in the lanes the estimator reads", () => {
    const rows = [row([1, 2, 3]), row([0, Number.NaN, Number.POSITIVE_INFINITY], [Number.NEGATIVE_INFINITY, 0, 0])];
    expect(nonFiniteInputNote(rows, "discounted")).toBe(
      "Non-finite inputs, run anyway (see how each scan spreads them under the heatmap): rewards: NaN at row 1, token 1; Infinity at row 1, token 2",
    );
    expect(nonFiniteInputNote(rows, "gae")).toMatch(/· values: -Infinity at row 1, token 0$/);
    expect(nonFiniteInputNote(rows, "reinforce_pp")).toBeNull();
    expect(nonFiniteInputNote([row([1, 2])], "discounted")).toBeNull();
  });

  it("reach the scanned tokens as each estimator computes them", () => {
    expect(scannedNonFiniteTokens(row([0, 0, 0, 0], [0, 0, Number.NaN, 0]), "gae")).toEqual([1, 2]);
    const rpp = { length: 4, kl: [0, Number.NaN, 0, 0], lossMask: [1, 1, 1, 0] as (0 | 1)[], outcome: Number.NaN };
    expect(scannedNonFiniteTokens(rpp, "reinforce_pp")).toEqual([1, 2]);
  });

  it("give the lesson for the selected row, else the first row that has them", () => {
    const rows = [row(new Array(8).fill(1)), row([1, 1, 1, 1, 1, Number.NaN, 1, 1])];
    // 8 tokens, chunks of 4 in reversed time: token 5 sits in the chunk of original tokens 4–7.
    expect(nonFiniteLesson(rows, "discounted", 8, 4, 0)).toBe(
      "Row 1: The chunked scan poisons tokens 0–7: its whole chunk of 4 (NaN times the discount matrix's zeros is still NaN) and, through the carries, everything before it; the serial loop carries it back to tokens 0–5 only, so 2 tokens after it differ.",
    );
    expect(nonFiniteLesson(rows, "discounted", 8, null, 1)).toBe(
      "Row 1: A non-finite input poisons tokens 0–5 in both scans: the serial loop carries it back to tokens 0–5 only.",
    );
    expect(nonFiniteLesson([row([1, 2])], "discounted", 2, 4, 0)).toBeNull();
  });
});
