import { describe, expect, it } from "vitest";
import { solve } from "../core";
import { inlineState } from "../testing/playgroundStateKit";
import { materializeRows, paddingStats, resizeRow, stateToProblem } from "./playgroundProblem";
import { MAX_CELLS, type PlaygroundState, parsePlaygroundState } from "./playgroundState";
import { DEFAULT_PLAYGROUND_STATE } from "./presets";

function messageOf(patch: Record<string, unknown>): string {
  const parsed = parsePlaygroundState({ ...DEFAULT_PLAYGROUND_STATE, ...patch });
  if (parsed.ok) throw new Error("expected the state to be refused");
  return parsed.error.message;
}

const inline = (rows: unknown[]) => ({ data: { source: "inline", rows } });

describe("the playground state is validated field by field", () => {
  it("accepts the default state", () => {
    expect(parsePlaygroundState(DEFAULT_PLAYGROUND_STATE)).toEqual({ ok: true, state: DEFAULT_PLAYGROUND_STATE });
  });

  it("names the field, what it expects and what it got", () => {
    expect(messageOf({ gamma: 1.5 })).toBe("gamma: expected a number between 0 and 1, got 1.5");
    expect(messageOf({ lambd: "x" })).toBe('lambd: expected a number between 0 and 1, got "x"');
    expect(messageOf({ chunkSize: 64.5 })).toBe("chunkSize: expected an integer between 1 and 4096, got 64.5");
    expect(messageOf({ estimator: "ppo" })).toBe('estimator: expected one of discounted, gae, reinforce_pp, got "ppo"');
    expect(messageOf({ backend: "metal" })).toBe(
      'backend: expected one of auto, webgpu, webgl, wasm, cpu, got "metal"',
    );
    expect(messageOf({ extra: 1 })).toBe("extra: unknown field (this version does not read it)");
    expect(messageOf({ data: { source: "csv" } })).toBe('data.source: expected source "preset" or "inline"');
    const missing = parsePlaygroundState({ ...DEFAULT_PLAYGROUND_STATE, gamma: undefined });
    expect(!missing.ok && missing.error.message).toBe("gamma: expected a number between 0 and 1, got nothing");
  });

  it("checks every lane against the row's length and the float32 range, naming the first bad token", () => {
    expect(messageOf(inline([{ length: 3, rewards: [1, 2] }]))).toBe(
      "data.rows[0].rewards: expected 3 values (length), got 2",
    );
    expect(messageOf(inline([{ length: 2 }, { length: 3, kl: [0, 1e39, 2] }]))).toBe(
      "data.rows[1].kl[1]: expected a number within float32 range (or NaN, ±Infinity), got 1e+39",
    );
    expect(messageOf(inline([{ length: 2, lossMask: [1, 2] }]))).toBe(
      "data.rows[0].lossMask[1]: expected 0 or 1, got 2",
    );
    expect(messageOf(inline([]))).toMatch(/^data.rows: /);
  });

  it("refuses batches above the size limit", () => {
    const data = { source: "preset", preset: "dense", seed: 1, rows: 1024, tokens: 8192, ragged: false };
    expect(messageOf({ data })).toBe(`data: 1024 rows × 8192 tokens is above the limit of ${MAX_CELLS} cells`);
    expect(messageOf(inline([{ length: 65536 }, ...new Array(64).fill({ length: 1 })]))).toMatch(
      /^data.rows: 65 rows padded to 65536 tokens is above the limit/,
    );
  });

  it("never throws on values that are not objects", () => {
    for (const value of [null, undefined, 3, "s", [], { data: null }]) {
      const parsed = parsePlaygroundState(value);
      expect(parsed.ok).toBe(false);
    }
    const parsed = parsePlaygroundState(null);
    expect(!parsed.ok && parsed.error.message).toBe("expected a playground state object, got null");
  });
});

describe("a state becomes core's problem", () => {
  const ragged = inlineState([
    { length: 3, rewards: [1, 2, 3], values: [0.5, 0.5, 0.5], kl: [1, 1, 1], lossMask: [1, 0, 1], outcome: 2 },
    { length: 1, rewards: [0.1], outcome: -1 },
  ]);

  it("right-pads ragged rows with zeros for discounted returns and GAE, inputs rounded to float32", () => {
    const problem = stateToProblem(ragged, "float64");
    expect(problem.kind).toBe("discounted");
    if (problem.kind !== "discounted") return;
    expect(problem.rewards.rows).toBe(2);
    expect(problem.rewards.cols).toBe(3);
    expect(Array.from(problem.rewards.data)).toEqual([1, 2, 3, Math.fround(0.1), 0, 0]);
    const gae = stateToProblem({ ...ragged, estimator: "gae" }, "float32");
    if (gae.kind !== "gae") throw new Error("expected gae");
    expect(gae.values.data).toBeInstanceOf(Float32Array);
    expect(Array.from(gae.values.data)).toEqual([0.5, 0.5, 0.5, 0, 0, 0]);
  });

  it("gives REINFORCE++ its ragged batch: outcomes, KL (zeros when absent) and masks (ones when absent)", () => {
    const problem = stateToProblem({ ...ragged, estimator: "reinforce_pp", klCoef: 0.5, gamma: 1 }, "float64");
    if (problem.kind !== "reinforce_pp") throw new Error("expected reinforce_pp");
    expect(Array.from(problem.batch.rewards)).toEqual([2, -1]);
    expect(problem.batch.kl.map((row) => Array.from(row))).toEqual([[1, 1, 1], [0]]);
    expect(problem.batch.lossMasks).toEqual([[1, 0, 1], [1]]);
    const { returns } = solve(problem, "serial").outputs as { returns: Float64Array[] };
    // tok = −0.5·kl·m, outcome at the last unmasked token: [−0.5, 0, 1.5]; γ = 1.
    expect(Array.from(returns[0])).toEqual([1, 1.5, 1.5]);
    expect(Array.from(returns[1])).toEqual([-1]);
  });

  it("draws a preset deterministically from its seed", () => {
    const a = materializeRows(DEFAULT_PLAYGROUND_STATE);
    expect(materializeRows(structuredClone(DEFAULT_PLAYGROUND_STATE))).toEqual(a);
    const other = { ...DEFAULT_PLAYGROUND_STATE, data: { ...DEFAULT_PLAYGROUND_STATE.data, seed: 2 } };
    expect(materializeRows(other as PlaygroundState)).not.toEqual(a);
  });

  it("measures the padding of a ragged batch", () => {
    expect(paddingStats(materializeRows(ragged))).toEqual({
      rows: 2,
      maxLength: 3,
      realTokens: 4,
      paddedCells: 6,
      paddingShare: 2 / 6,
    });
    expect(paddingStats([]).paddingShare).toBe(0);
  });

  it("resizes a row in every lane it has, padding with zeros and mask ones", () => {
    const row = { length: 2, rewards: [1, 2], lossMask: [0, 0] as (0 | 1)[], outcome: 3 };
    expect(resizeRow(row, 4)).toEqual({ length: 4, rewards: [1, 2, 0, 0], lossMask: [0, 0, 1, 1], outcome: 3 });
    expect(resizeRow(row, 1)).toEqual({ length: 1, rewards: [1], lossMask: [0], outcome: 3 });
  });
});
