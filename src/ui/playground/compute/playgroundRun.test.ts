import { describe, expect, it } from "vitest";
import { maxAbsError, solve } from "../../../core";
import { SupersededError } from "../../../engine/client";
import { materializeRows } from "../../../io/playgroundProblem";
import type { PlaygroundState } from "../../../io/playgroundState";
import { BASE_SETTINGS } from "../../../io/presets";
import { outputTables } from "./outputTables";
import {
  type ChunkedSolver,
  CORE_LABEL,
  phaseLabel,
  previewable,
  progressText,
  runLiveRow,
  runPlayground,
  runPlaygroundNow,
} from "./playgroundRun";
import { problemsFor } from "./problemCache";

/** Core's chunked scan standing in for the engine worker. */
const coreChunked: ChunkedSolver = async (problem) => ({
  outputs: solve(problem, "chunked").outputs,
  backend: "core",
  strategy: "chunked",
  millis: 0,
});
const now = async () => {};

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

describe("runPlayground", () => {
  it("pads ragged outputs into [B, max length] tables and summarises every valid token", async () => {
    const result = await runPlayground(state, rows, {
      solveChunked: coreChunked,
      isStale: () => false,
      yieldToPage: now,
    });
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

  it("tells each step as it starts, with the chunked side already sent before the serial reference", async () => {
    const events: string[] = [];
    // Rows of their own: the serial scans of `rows` are kept from the tests before.
    await runPlayground(state, rows.slice(), {
      solveChunked: async (problem, precision, strategy) => {
        events.push("chunked sent");
        return coreChunked(problem, precision, strategy);
      },
      isStale: () => false,
      yieldToPage: now,
      onPhase: (phase) => events.push(phase),
    });
    expect(events).toEqual(["chunked sent", "reference", "serial32", "chunked", "summary"]);
    expect(phaseLabel("reference", "float32-engine")).toBe(
      "float64 serial reference (the engine run started alongside)",
    );
    expect(progressText("chunked", "float64", 2345)).toBe(
      "Running: waiting for the core worker's chunked scan and the error bounds, 2.3 s",
    );
    expect(progressText(null, "float32-engine", 40)).toBe("Starting the run, 0.0 s");
  });

  it("runs the serial scans once per input: a chunk-size step and the engine's answer after the preview reuse them", async () => {
    const batch = rows.slice();
    const control = { solveChunked: coreChunked, isStale: () => false, yieldToPage: now };
    const preview = runPlaygroundNow(state, batch);
    expect(preview.ran.backend).toBe("core float32 (slime's order, torch CPU float32 powers)");
    const phases: string[] = [];
    const again = await runPlayground(state, batch, { ...control, onPhase: (phase) => phases.push(phase) });
    expect(phases).toEqual(["chunked", "summary"]);
    expect(again.reference).toBe(preview.reference);
    expect(again.bound).toBe(preview.bound);
    expect(again.summary).toEqual(preview.summary);
    const stepped = await runPlayground({ ...state, chunkSize: 8 }, batch, control);
    expect(stepped.reference).toBe(preview.reference);
    expect(stepped.bound).not.toBe(preview.bound);
    const otherGamma = await runPlayground({ ...state, gamma: 0.9 }, batch, control);
    expect(otherGamma.reference).not.toBe(preview.reference);
    expect(otherGamma.summary.cells).toBe(preview.summary.cells);
  });

  it("computes a teaching-size batch at once, with the sliced run's figures", async () => {
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
    const now32 = runPlaygroundNow(s, batch);
    expect(now32.ran).toMatchObject({ backend: CORE_LABEL["float32-engine"], strategy: "chunked" });
    const sliced = await runPlayground(s, batch.slice(), {
      solveChunked: coreChunked,
      isStale: () => false,
      yieldToPage: now,
    });
    expect(Array.from(now32.chunked.returns ?? [])).toEqual(Array.from(sliced.chunked.returns ?? []));
    expect(now32.summary).toEqual(sliced.summary);
  });

  it("scans the serial sides row by row with the whole batch's bits (ragged REINFORCE++ and GAE)", async () => {
    const gae: PlaygroundState = {
      ...state,
      estimator: "gae",
      lambd: 0.95,
      precision: "float64",
      data: { source: "preset", preset: "dense", seed: 4, rows: 3, tokens: 40, ragged: true },
    };
    for (const s of [state, gae]) {
      const batch = s.data.source === "inline" ? s.data.rows : materializeRows(s.data);
      const result = await runPlayground(s, batch, {
        solveChunked: coreChunked,
        isStale: () => false,
        yieldToPage: now,
      });
      const { p64, p32 } = await problemsFor(s, batch);
      const whole64 = outputTables(solve(p64, "serial").outputs, result.rows, result.cols);
      const whole32 = outputTables(solve(p32, "serial").outputs, result.rows, result.cols);
      for (const name of Object.keys(whole64) as (keyof typeof whole64)[]) {
        expect(Array.from(result.reference[name] ?? [])).toEqual(Array.from(whole64[name] ?? []));
        expect(Array.from(result.serial32[name] ?? [])).toEqual(Array.from(whole32[name] ?? []));
      }
    }
  });

  it("recomputes one row with the batch's bits", async () => {
    const control = { solveChunked: coreChunked, isStale: () => false, yieldToPage: now };
    const whole = await runPlayground(state, rows, control);
    const one = await runLiveRow(state, rows, 1, coreChunked);
    expect(one.length).toBe(6);
    expect(Array.from((one.chunked.returns as Float32Array).subarray(0, 6))).toEqual(
      Array.from((whole.chunked.returns as Float32Array).subarray(10, 16)),
    );
  });

  it("with a time budget works past pause points without yielding, to the same result, and still stops when stale", async () => {
    let yields = 0;
    const counted = async () => {
      yields++;
    };
    const sliced = await runPlayground(state, rows, {
      solveChunked: coreChunked,
      isStale: () => false,
      yieldToPage: counted,
    });
    const slicedYields = yields;
    yields = 0;
    const budgeted = await runPlayground(state, rows, {
      solveChunked: coreChunked,
      isStale: () => false,
      yieldToPage: counted,
      budgetMs: Number.POSITIVE_INFINITY,
    });
    expect(slicedYields).toBeGreaterThan(0);
    expect(yields).toBe(0);
    expect(budgeted.summary).toEqual(sliced.summary);
    expect(Array.from(budgeted.chunked.returns ?? [])).toEqual(Array.from(sliced.chunked.returns ?? []));
    // A newer request is seen at the next pause point, budget or not.
    let stale = false;
    const run = runPlayground(state, rows, {
      solveChunked: async (...args) => {
        stale = true;
        return coreChunked(...args);
      },
      isStale: () => stale,
      yieldToPage: now,
      budgetMs: Number.POSITIVE_INFINITY,
    });
    await expect(run).rejects.toBeInstanceOf(SupersededError);
  });

  it("stops with SupersededError once a newer request exists, and names the row of bad input", async () => {
    let stale = false;
    const run = runPlayground(state, rows, {
      solveChunked: coreChunked,
      isStale: () => stale,
      yieldToPage: async () => {
        stale = true;
      },
    });
    await expect(run).rejects.toBeInstanceOf(SupersededError);
    const masked = {
      ...state,
      data: { source: "inline" as const, rows: [{ ...rows[1], lossMask: [0, 0, 0, 0, 0, 0] as (0 | 1)[] }] },
    };
    await expect(
      runPlayground(masked, masked.data.rows, { solveChunked: coreChunked, isStale: () => false, yieldToPage: now }),
    ).rejects.toThrow("Sequence at index 0 is fully masked.");
  });
});
