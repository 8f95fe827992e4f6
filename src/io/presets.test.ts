import { describe, expect, it } from "vitest";
import { solve } from "../core";
import { materializeRows, paddingStats, stateToProblem } from "./playgroundProblem";
import { GENERATORS, parsePlaygroundState } from "./playgroundState";
import { DEFAULT_PLAYGROUND_STATE, EXAMPLES, exampleById, FIRST_VISIT_STATE } from "./presets";
import { generateRows } from "./rowGenerators";

/** The float64 serial output the charts show: returns, or GAE advantages, row by row (trimmed). */
function serialRows(id: string): number[][] {
  const example = exampleById(id);
  if (!example) throw new Error(`no example ${id}`);
  const rows = materializeRows(example.state);
  const outputs = solve(stateToProblem(example.state, "float64"), "serial").outputs;
  const round3 = (x: number) => Math.round(x * 1000) / 1000;
  if (outputs.kind === "reinforce_pp") return outputs.returns.map((r) => Array.from(r, round3));
  const flat = outputs.kind === "gae" ? outputs.advantages : outputs.returns;
  const cols = flat.length / rows.length;
  return rows.map((row, b) => Array.from(flat.subarray(b * cols, b * cols + row.length), round3));
}

describe("built-in examples", () => {
  it("are valid states with unique ids, a caption, and an https link when they cite a report", () => {
    const ids = new Set(EXAMPLES.map((e) => e.id));
    expect(ids.size).toBe(EXAMPLES.length);
    for (const example of EXAMPLES) {
      const parsed = parsePlaygroundState(example.state);
      expect(parsed.ok ? "" : parsed.error.message, example.id).toBe("");
      expect(example.caption.length, example.id).toBeGreaterThan(20);
      if (example.link) expect(example.link.url).toMatch(/^https:\/\/github\.com\//);
    }
  });

  it("NaN in one token: the chunked scan loses the NaN's whole chunk, the serial loop only the tokens before it", () => {
    const example = exampleById("nan-one-token");
    if (!example) throw new Error("no example nan-one-token");
    const problem = stateToProblem(example.state, "float64");
    const lost = (method: "serial" | "chunked") => {
      const outputs = solve(problem, method).outputs;
      const returns = outputs.kind === "discounted" ? outputs.returns.subarray(300, 600) : new Float64Array();
      return Array.from(returns).filter((v) => !Number.isFinite(v)).length;
    };
    expect(lost("serial")).toBe(141);
    expect(lost("chunked")).toBe(172);
  });

  it("reproduce the numbers of the reports they cite", () => {
    expect(serialRows("kl-on-tool-tokens-leak")[0][0]).toBe(-3.439);
    expect(serialRows("kl-on-tool-tokens-fixed")[0][0]).toBe(-1.729);
    expect(serialRows("return-through-observations")).toEqual([[1, 1, 1, 1, 1, 1]]);
    expect(serialRows("gae-observation-tokens")).toEqual([[0.372, 0.391, 0.727, 0.766, 0.385, 0.3]]);
    expect(serialRows("reward-at-eos")).toEqual([
      [0.542, 0.466, 0.385, 0.3],
      [0.556, 0.48, 0.4],
    ]);
    expect(serialRows("padding-summed")).toEqual([
      [6.5, 5, 4, 2],
      [2.5, 1],
    ]);
    expect(new Set(serialRows("gamma-underflow")[0].slice(0, 300))).toEqual(new Set([10]));
    expect(
      paddingStats(materializeRows(exampleById("padding-waste")?.state ?? DEFAULT_PLAYGROUND_STATE)).paddingShare,
    ).toBe(0.46);
  });

  it("open on a first visit with a few short rows, chunks small enough to see and returns made by the carries", () => {
    const state = FIRST_VISIT_STATE;
    expect(EXAMPLES[0].state).toBe(state);
    expect(state.estimator).toBe("discounted");
    const rows = materializeRows(state);
    expect(rows.length).toBeGreaterThanOrEqual(2);
    expect(rows.length).toBeLessThanOrEqual(4);
    for (const row of rows) {
      expect(row.length).toBeGreaterThanOrEqual(32);
      expect(row.length).toBeLessThanOrEqual(64);
      // Four chunks or more on every row, so the boundaries show in the editor and the charts.
      expect(row.length / state.chunkSize).toBeGreaterThanOrEqual(4);
      expect(row.rewards?.every((r) => Math.fround(r) === r)).toBe(true);
    }
    // Row 2 has one reward, on its last token: every earlier chunk's returns come from its carry alone.
    const returns = serialRows("first-visit")[2];
    const rewards = rows[2].rewards ?? [];
    const lastChunk = rows[2].length - state.chunkSize;
    expect(rewards.slice(0, lastChunk).every((r) => r === 0)).toBe(true);
    expect(returns.slice(0, lastChunk).every((g) => g > 0.1)).toBe(true);
  });

  it("start a link's readable parameters from a ragged multi-turn REINFORCE++ batch, with padding and masked holes", () => {
    const rows = materializeRows(DEFAULT_PLAYGROUND_STATE);
    expect(DEFAULT_PLAYGROUND_STATE.estimator).toBe("reinforce_pp");
    expect(rows).toHaveLength(4);
    expect(paddingStats(rows).paddingShare).toBeGreaterThan(0.1);
    expect(Math.max(...rows.map((r) => r.length))).toBeGreaterThan(DEFAULT_PLAYGROUND_STATE.chunkSize);
    for (const row of rows) expect(row.lossMask?.includes(0) && row.lossMask.includes(1)).toBe(true);
  });
});

describe("seeded generators", () => {
  it("fill every lane with float32 values of the row's length, the same for the same seed", () => {
    for (const preset of GENERATORS) {
      const rows = generateRows(preset, 7, 5, 257, true);
      expect(generateRows(preset, 7, 5, 257, true)).toEqual(rows);
      expect(rows[0].length).toBe(257);
      for (const row of rows) {
        expect(row.length).toBeGreaterThanOrEqual(65);
        for (const lane of [row.rewards, row.values, row.kl, row.lossMask]) {
          expect(lane?.length).toBe(row.length);
          expect(lane?.every((x) => Number.isFinite(x) && Math.fround(x) === x)).toBe(true);
        }
        expect(row.lossMask?.includes(1)).toBe(true);
      }
    }
  });

  it("draw what their names say", () => {
    const [terminal] = generateRows("terminal", 3, 1, 50, false);
    expect(terminal.rewards?.slice(0, 49).every((r) => r === 0)).toBe(true);
    expect(Math.abs(terminal.rewards?.[49] ?? 0)).toBe(1);
    const sparse = generateRows("sparse", 3, 4, 1000, false).flatMap((r) => r.rewards ?? []);
    const spikes = sparse.filter((r) => r !== 0).length;
    expect(spikes).toBeGreaterThan(40);
    expect(spikes).toBeLessThan(160);
    const [multi] = generateRows("multi-turn", 3, 1, 300, false);
    const last = multi.lossMask?.lastIndexOf(1) ?? -1;
    expect(multi.lossMask?.filter((m) => m === 0).length).toBeGreaterThan(20);
    expect(multi.rewards?.[last]).toBe(multi.outcome);
    const [huge] = generateRows("huge-alternating", 3, 1, 4, false);
    expect(huge.rewards?.map((r) => Math.sign(r) * Math.floor(Math.log10(Math.abs(r))))).toEqual([30, -30, 30, -30]);
    const [constant] = generateRows("constant", 3, 1, 512, false);
    expect(new Set(constant.rewards)).toEqual(new Set([1]));
  });

  it("draw all rows at full length unless ragged", () => {
    expect(generateRows("dense", 1, 6, 100, false).map((r) => r.length)).toEqual([100, 100, 100, 100, 100, 100]);
    expect(new Set(generateRows("dense", 1, 6, 100, true).map((r) => r.length)).size).toBeGreaterThan(1);
  });
});
