import { describe, expect, it } from "vitest";
import { maxAbsError, solve } from "../../core";
import { materializeRows } from "../../io/playgroundProblem";
import type { PlaygroundRow, PlaygroundState } from "../../io/playgroundState";
import { BASE_SETTINGS } from "../../io/presets";
import { outputTables } from "./outputTables";
import {
  type ChunkedSolver,
  CORE_LABEL,
  type ComputedResult,
  finishRun,
  phaseLabel,
  previewable,
  progressText,
  runLiveRow,
  startRun,
  toFloat32,
} from "./playgroundRun";
import { problemsFor } from "./problemCache";

/** Core's chunked scan standing in for the engine worker. */
const coreChunked: ChunkedSolver = async (problem) => ({
  outputs: solve(problem, "chunked").outputs,
  backend: "core",
  strategy: "chunked",
  millis: 0,
});

const state: PlaygroundState = {
  ...BASE_SETTINGS,
  estimator: "reinforce_pp",
  gamma: 0.99,
  chunkSize: 4,
  klCoef: 0.5,
  precision: "slime-exact",
  data: {
    source: "inline",
    rows: [
      { length: 10, kl: [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1].map(Math.fround), outcome: 1 },
      { length: 6, kl: [1, 1, 1, 1, 1, 1], lossMask: [1, 1, 0, 0, 1, 0], outcome: -2 },
    ],
  },
};
const rows = state.data.source === "inline" ? state.data.rows : [];

/** The whole run as the playground worker computes it (core's chunked side unless one is given). */
function run(s: PlaygroundState, batch: PlaygroundRow[], answer?: Parameters<typeof finishRun>[1]): ComputedResult {
  const { p64 } = problemsFor(s, batch);
  const request = {
    id: 1,
    problem: p64,
    precision: s.precision,
    strategy: s.strategy,
    lengths: batch.map((r) => r.length),
  };
  return finishRun(startRun(request), answer);
}

describe("the playground worker's run", () => {
  it("pads ragged outputs into [B, max length] tables and summarises every valid token", async () => {
    const { p32 } = problemsFor(state, rows);
    const result = run(state, rows, await coreChunked(p32, state.precision, state.strategy));
    expect(result).toMatchObject({ rows: 2, cols: 10, lengths: [10, 6] });
    const returns = result.reference.returns as Float64Array;
    // Row 1: token rewards −0.5·kl·mask, outcome −2 at its last unmasked token (4), γ 0.99.
    expect(returns[10 + 4]).toBeCloseTo(-2.5, 12);
    expect(returns[10 + 5]).toBe(0);
    expect(Array.from(returns.subarray(16, 20))).toEqual([0, 0, 0, 0]);
    const chunked = result.chunked.returns as Float32Array;
    expect(result.summary.maxAbs).toBe(
      Math.max(
        maxAbsError(chunked.subarray(0, 10), returns.subarray(0, 10)),
        maxAbsError(chunked.subarray(10, 16), returns.subarray(10, 16)),
      ),
    );
    expect(result.summary.maxAbs).toBeGreaterThan(0);
    expect(result.summary.cells).toBe(2 * 16);
    expect(result.summary.overBound).toBe(0);
    expect(result.ran).toMatchObject({ backend: "core", strategy: "chunked", precision: "slime-exact" });
  });

  it("names each step of the busy line", () => {
    expect(phaseLabel("engine")).toBe(
      "the engine run (the float64 and float32 serial scans and the error bounds alongside)",
    );
    expect(progressText("summary", 2345)).toBe("Running: summarising the errors, 2.3 s");
    expect(progressText(null, 40)).toBe("Starting the run, 0.0 s");
  });

  it("computes core's chunked side itself when none is given, as the engine's float32 emulation", () => {
    const s: PlaygroundState = {
      ...BASE_SETTINGS,
      data: { source: "preset", preset: "dense", seed: 3, rows: 4, tokens: 300, ragged: true },
    };
    const batch = materializeRows(s.data);
    expect(previewable(batch)).toBe(true);
    expect(
      previewable(
        materializeRows({ source: "preset", preset: "dense", seed: 3, rows: 16, tokens: 8192, ragged: false }),
      ),
    ).toBe(false);
    const own = run(s, batch);
    expect(own.ran).toMatchObject({ backend: CORE_LABEL["float32-engine"], strategy: "chunked" });
    const { p32 } = problemsFor(s, batch);
    const given = run(s, batch, {
      outputs: solve(p32, "chunked").outputs,
      backend: "x",
      strategy: "chunked",
      millis: 0,
    });
    expect(Array.from(own.chunked.returns ?? [])).toEqual(Array.from(given.chunked.returns ?? []));
    expect(own.summary).toEqual(given.summary);
  });

  it("takes the bound of the strategy the engine ran when it ran another than asked", () => {
    const s: PlaygroundState = { ...state, estimator: "discounted", precision: "float32-engine", strategy: "fused" };
    const batch = materializeRows({ source: "preset", preset: "dense", seed: 2, rows: 2, tokens: 64, ragged: false });
    const { p32 } = problemsFor(s, batch);
    const outputs = solve(p32, "chunked").outputs;
    const asked = run(s, batch, { outputs, backend: "x", strategy: "fused", millis: 0 });
    const ranChunked = run(s, batch, { outputs, backend: "x", strategy: "chunked", millis: 0 });
    expect(ranChunked.ran.strategy).toBe("chunked");
    expect(ranChunked.bound.returns).toEqual(
      run({ ...s, strategy: "chunked" }, batch, { outputs, backend: "x", strategy: "chunked", millis: 0 }).bound
        .returns,
    );
    expect(asked.ran.strategy).toBe("fused");
  });

  it("scans the serial sides with the whole batch's bits (ragged REINFORCE++ and GAE)", () => {
    const gae: PlaygroundState = {
      ...state,
      estimator: "gae",
      lambd: 0.95,
      precision: "float64",
      data: { source: "preset", preset: "dense", seed: 4, rows: 3, tokens: 40, ragged: true },
    };
    for (const s of [state, gae]) {
      const batch = s.data.source === "inline" ? s.data.rows : materializeRows(s.data);
      const result = run(s, batch);
      const { p64, p32 } = problemsFor(s, batch);
      expect(toFloat32(p64)).toEqual(p32);
      const whole64 = outputTables(solve(p64, "serial").outputs, result.rows, result.cols);
      const whole32 = outputTables(solve(p32, "serial").outputs, result.rows, result.cols);
      for (const name of Object.keys(whole64) as (keyof typeof whole64)[]) {
        expect(Array.from(result.reference[name] ?? [])).toEqual(Array.from(whole64[name] ?? []));
        expect(Array.from(result.serial32[name] ?? [])).toEqual(Array.from(whole32[name] ?? []));
      }
    }
  });

  it("recomputes one row with the batch's bits", async () => {
    const whole = run(state, rows);
    const one = await runLiveRow(state, rows, 1, coreChunked);
    expect(one.length).toBe(6);
    expect(Array.from((one.chunked.returns as Float32Array).subarray(0, 6))).toEqual(
      Array.from((whole.chunked.returns as Float32Array).subarray(10, 16)),
    );
  });

  it("names the row of bad input", () => {
    const masked = {
      ...state,
      data: { source: "inline" as const, rows: [{ ...rows[1], lossMask: [0, 0, 0, 0, 0, 0] as (0 | 1)[] }] },
    };
    expect(() => run(masked, masked.data.rows)).toThrow("Sequence at index 0 is fully masked.");
  });
});
