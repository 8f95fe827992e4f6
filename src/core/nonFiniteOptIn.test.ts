import { describe, expect, it } from "vitest";
import { solve } from "./problem";
import { ScanInputError } from "./validation";

/** Tokens 0…n−1 of a row that are NaN or ±Inf. */
function nonFiniteTokens(values: ArrayLike<number>): number[] {
  return Array.from(values, (v, t) => (Number.isFinite(v) ? -1 : t)).filter((t) => t >= 0);
}

describe("allowNonFinite (the playground's opt-in)", () => {
  const T = 10;
  const C = 4;
  const rewards = () => {
    const data = new Float64Array(T).fill(1);
    data[5] = Number.NaN; // reversed time: token 4 of 10, chunk 1 = original tokens 2…5
    return { rows: 1, cols: T, data };
  };

  it("stays strict by default, naming row and token", () => {
    const problem = { kind: "discounted" as const, rewards: rewards(), discount: 0.9, chunkSize: C };
    expect(() => solve(problem, "serial")).toThrow(ScanInputError);
    expect(() => solve(problem, "chunked")).toThrow(/row 0, token 5: NaN/);
  });

  it("runs both scans: the serial loop spreads NaN backwards only, the chunked scan over its whole chunk", () => {
    const problem = {
      kind: "discounted" as const,
      rewards: rewards(),
      discount: 0.9,
      chunkSize: C,
      allowNonFinite: true,
    };
    const serial = solve(problem, "serial").outputs as { returns: Float64Array };
    const chunked = solve(problem, "chunked").outputs as { returns: Float64Array };
    expect(nonFiniteTokens(serial.returns)).toEqual([0, 1, 2, 3, 4, 5]);
    // Token 5 sits in reversed chunk 1 (original tokens 2…5): nothing after it is poisoned here.
    expect(nonFiniteTokens(chunked.returns)).toEqual([0, 1, 2, 3, 4, 5]);
    const late = new Float64Array(T).fill(1);
    late[3] = Number.POSITIVE_INFINITY; // chunk of original tokens 2…5: 4 and 5 are lost too
    const lateProblem = { ...problem, rewards: { rows: 1, cols: T, data: late } };
    const serialLate = solve(lateProblem, "serial").outputs as { returns: Float64Array };
    const chunkedLate = solve(lateProblem, "chunked").outputs as { returns: Float64Array };
    expect(nonFiniteTokens(serialLate.returns)).toEqual([0, 1, 2, 3]);
    expect(nonFiniteTokens(chunkedLate.returns)).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it("lets GAE and REINFORCE++ run too, and is strict again afterwards", () => {
    const values = { rows: 1, cols: T, data: new Float64Array(T) };
    const gae = { kind: "gae" as const, rewards: rewards(), values, gamma: 1, lambd: 0.9, chunkSize: C };
    expect(() => solve({ ...gae, allowNonFinite: true }, "chunked")).not.toThrow();
    const kl = new Float64Array(T);
    kl[2] = Number.NEGATIVE_INFINITY;
    const batch = { rewards: [1], kl: [kl], lossMasks: [Array<number>(T).fill(1)] };
    const rpp = { kind: "reinforce_pp" as const, batch, klCoef: 0.1, gamma: 1, chunkSize: C, allowNonFinite: true };
    expect(() => solve(rpp, "chunked")).not.toThrow();
    expect(() => solve(gae, "serial")).toThrow(ScanInputError);
  });
});
