import { describe, expect, it } from "vitest";
import { solve } from "../../core";
import { materializeRows, stateToProblem } from "../../io/playgroundProblem";
import type { Estimator, PlaygroundRow, PlaygroundState } from "../../io/playgroundState";
import { BASE_SETTINGS } from "../../io/presets";
import { carryAsk, splitCarryRow } from "./carryRow";
import { type OutputName, outputTables } from "./outputTables";
import { playgroundApi } from "./playgroundApi";
import type { PlaygroundResult } from "./playgroundRun";
import { paddedWidth } from "./rowProblem";

/** A result as the page holds one, with core's float64 chunked scan as its chunked side. */
function resultOf(estimator: Estimator, settings: Partial<PlaygroundState> = {}) {
  const state: PlaygroundState = {
    ...BASE_SETTINGS,
    estimator,
    gamma: 0.97,
    lambd: 0.9,
    chunkSize: 8,
    precision: "float64",
    ...settings,
    data: { source: "preset", preset: "multi-turn", seed: 3, rows: 3, tokens: 45, ragged: true },
  };
  const rows = materializeRows(state);
  const problem = stateToProblem(state, "float64", rows);
  const cols = paddedWidth(problem);
  const chunked = outputTables(solve(problem, "chunked").outputs, rows.length, cols);
  const result = {
    kind: problem.kind,
    rows: rows.length,
    cols,
    lengths: rows.map((row) => row.length),
    chunked,
    input: state,
    ran: { chunkSize: state.chunkSize, precision: "float64" },
  } as unknown as PlaygroundResult;
  return { result, rows };
}

/** Row `b`'s split as the page gets it, or why it has none. */
function carryRowOf(result: PlaygroundResult, rows: PlaygroundRow[], b: number, output: OutputName) {
  const ask = carryAsk(result, rows, b, output);
  return "ok" in ask ? ask : splitCarryRow(ask);
}

describe("carryRowOf: the row in focus, split as the batch's scan split it", () => {
  for (const [estimator, output] of [
    ["discounted", "returns"],
    ["gae", "advantages"],
    ["reinforce_pp", "returns"],
  ] as [Estimator, OutputName][]) {
    it(`${estimator}: local + carried is the float64 chunked ${output} of the whole batch, bit for bit`, () => {
      const { result, rows } = resultOf(estimator);
      expect(new Set(result.lengths).size).toBeGreaterThan(1);
      for (let b = 0; b < rows.length; b++) {
        const split = carryRowOf(result, rows, b, output);
        if (!split.ok) throw new Error(split.why);
        const { local, carried, total } = split.row;
        const length = result.lengths[b];
        expect(total.length).toBe(length);
        const batch = result.chunked[output]?.subarray(b * result.cols, b * result.cols + length);
        expect(total).toEqual(batch);
        for (let t = 0; t < length; t++) expect(local[t] + carried[t]).toBe(total[t]);
        // Ragged rows: the chunks follow the batch's padded length, so a short row's last chunk takes a carry of 0.
        expect(split.row.paddedLength).toBe(result.cols);
        expect(split.row.discountName).toBe(estimator === "gae" ? "γλ" : "γ");
      }
    });
  }

  it("says why an output that is not the scan's own has no carries", () => {
    const gae = resultOf("gae");
    const returns = carryRowOf(gae.result, gae.rows, 0, "returns");
    expect(returns).toEqual({ ok: false, why: expect.stringMatching(/^GAE's returns are A \+ V/) });
    const rpp = resultOf("reinforce_pp");
    expect(carryRowOf(rpp.result, rpp.rows, 0, "token_level_rewards").ok).toBe(false);
    expect(carryRowOf(rpp.result, rpp.rows, 7, "returns")).toEqual({ ok: false, why: "no such row" });
  });

  it("is the same split when the worker is sent the ask", () => {
    const { result, rows } = resultOf("gae");
    const ask = carryAsk(result, rows, 1, "advantages");
    if ("ok" in ask) throw new Error(ask.why);
    expect(playgroundApi().carryRow(structuredClone(ask))).toEqual(carryRowOf(result, rows, 1, "advantages"));
  });
});
