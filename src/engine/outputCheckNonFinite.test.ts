import { beforeAll, describe, expect, it } from "vitest";
import { ScanInputError, type ScanProblem, solve } from "../core";
import { strategiesFor } from "../names/strategies";
import { useCpuBackend } from "../testing/engineTestKit";
import { EngineOutputError } from "./engineErrors";
import { checkEngineOutputs, nonFiniteReach } from "./outputCheck";
import { prepareProblem } from "./prepareProblem";
import { runProblem } from "./runProblem";

beforeAll(useCpuBackend);

const T = 300;
const C = 64;
/** 2 rows of 300 tokens; row 1 has a NaN at token 140 (reversed chunk of original tokens 108–171). */
function problem(allowNonFinite?: boolean): ScanProblem {
  const data = new Float32Array(2 * T).fill(0.25);
  data[T + 140] = Number.NaN;
  return { kind: "discounted", rewards: { rows: 2, cols: T, data }, discount: 0.99, chunkSize: C, allowNonFinite };
}
const nonFiniteTokens = (a: ArrayLike<number>) => Array.from(a).flatMap((v, i) => (Number.isFinite(v) ? [] : [i]));
const upTo = (last: number, offset = 0) => Array.from({ length: last + 1 }, (_, t) => offset + t);

describe("non-finite inputs on the engine (opt-in)", () => {
  it("predicts how far each strategy may spread them", () => {
    const x = new Float32Array(T);
    x[140] = Number.NaN;
    expect(nonFiniteReach(x, T, C, "per-token")).toBe(140);
    expect(nonFiniteReach(x, T, C, "chunked")).toBe(171);
    expect(nonFiniteReach(x, T, C, "two-level")).toBe(T - 1);
    expect(nonFiniteReach(new Float32Array(T), T, C, "chunked")).toBe(-1);
  });

  it("stays strict without the opt-in", async () => {
    expect(() => prepareProblem(problem())).toThrow(ScanInputError);
    await expect(runProblem(problem(), "chunked")).rejects.toThrow(/row 1, token 140: NaN/);
  });

  it("runs every strategy: the NaN reaches exactly as predicted, the clean row stays clean", async () => {
    for (const strategy of strategiesFor("cpu")) {
      const run = await runProblem(problem(true), strategy);
      const returns = run.outputs.kind === "discounted" ? run.outputs.returns : new Float32Array();
      const lost = nonFiniteTokens(returns);
      if (strategy === "per-token") expect(lost, strategy).toEqual(upTo(140, T));
      else if (strategy === "chunked") expect(lost, strategy).toEqual(upTo(171, T));
      else
        expect(
          lost.every((i) => i >= T && i - T <= T - 1),
          strategy,
        ).toBe(true);
      expect(lost.length, strategy).toBeGreaterThan(0);
    }
    const core = solve({ ...problem(true) }, "chunked").outputs;
    expect(nonFiniteTokens(core.kind === "discounted" ? core.returns : [])).toEqual(upTo(171, T));
  });

  it("still calls a NaN beyond the reach of the inputs an EngineOutputError", () => {
    const p = prepareProblem(problem(true));
    const good = solve(problem(true), "chunked").outputs;
    if (good.kind !== "discounted") throw new Error("discounted");
    const bad = Float32Array.from(good.returns);
    bad[T + 172] = Number.NaN; // first token after the chunk that holds the NaN
    const run = (returns: Float32Array) =>
      checkEngineOutputs(p, "chunked", "test", { outputs: { kind: "discounted", returns } });
    expect(() => run(Float32Array.from(good.returns))).not.toThrow();
    expect(() => run(bad)).toThrow(EngineOutputError);
    const cleanRow = Float32Array.from(good.returns);
    cleanRow[10] = Number.NaN; // row 0 has no NaN input at all
    expect(() => run(cleanRow)).toThrow(/row 0, token 10/);
  });
});
