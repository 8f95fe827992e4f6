import LZString from "lz-string";
import { describe, expect, it } from "vitest";
import { stateToProblem } from "./playgroundProblem";
import { type PlaygroundState, parsePlaygroundState } from "./playgroundState";
import { DEFAULT_PLAYGROUND_STATE } from "./presets";
import { decodeState, encodeState } from "./shareLink";

const withNonFinite = (lane: number[]): PlaygroundState => ({
  ...DEFAULT_PLAYGROUND_STATE,
  data: { source: "inline", rows: [{ length: lane.length, rewards: lane }] },
});

describe("NaN and ±Inf in a playground state", () => {
  it("are accepted by the schema in lanes; a finite value beyond float32 still is not", () => {
    expect(parsePlaygroundState(withNonFinite([1, Number.NaN, Number.POSITIVE_INFINITY])).ok).toBe(true);
    const over = parsePlaygroundState(withNonFinite([1, 1e39]));
    expect(over.ok).toBe(false);
  });

  it("travel through a link (the saved session is the same text) unchanged, runs of them included", () => {
    for (const lane of [
      [1, Number.NaN, 2, Number.NEGATIVE_INFINITY, 3],
      Array<number>(64).fill(Number.NaN),
      [...Array<number>(40).fill(0), Number.POSITIVE_INFINITY],
    ]) {
      const decoded = decodeState(encodeState(withNonFinite(lane)));
      if (!decoded.ok) throw new Error(decoded.error.message);
      const data = decoded.state.data;
      expect(data.source === "inline" && data.rows[0].rewards).toEqual(lane);
    }
  });

  it("an old link (plain numbers in runs) still opens", () => {
    const old = {
      v: 1,
      ...DEFAULT_PLAYGROUND_STATE,
      data: { source: "inline", rows: [{ length: 3, rewards: { runs: [2, 3] } }] },
    };
    const decoded = decodeState(LZString.compressToEncodedURIComponent(JSON.stringify(old)));
    expect(decoded.ok && decoded.state.data.source === "inline" && decoded.state.data.rows[0].rewards).toEqual([
      2, 2, 2,
    ]);
  });

  it("make a problem that opts in to run them", () => {
    const problem = stateToProblem(withNonFinite([1, Number.NaN]), "float64");
    expect(problem.allowNonFinite).toBe(true);
  });
});
