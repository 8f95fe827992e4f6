import { describe, expect, it } from "vitest";
import { buildCase, buildCaseFile } from "../../io/caseBuilder";
import { DEFAULT_PLAYGROUND_STATE } from "../../io/presets";
import { readPlayerFile } from "./playerFile";
import { MAX_PLAYER_CELLS, sourceSizeProblem } from "./playerLimits";

const discounted = (rows: number, cols: number, name: string) =>
  buildCase(
    {
      kind: "discounted",
      rewards: { rows, cols, data: new Float64Array(rows * cols).fill(0.5) },
      discount: 0.9,
      chunkSize: 64,
    },
    name,
  );

const bytesOf = (cases: ReturnType<typeof discounted>[]) =>
  new TextEncoder().encode(JSON.stringify(buildCaseFile(cases)));

describe("the player's size limit", () => {
  const huge = discounted(2, MAX_PLAYER_CELLS / 2 + 1, "huge");
  const small = discounted(2, 40, "small");
  const huge2 = { ...huge, name: "huge2" };

  it("leaves out the cases too large to replay, naming the limit and the size, and keeps the others", () => {
    const { file, leftOut } = readPlayerFile(bytesOf([huge, small, huge2]), "mixed.json");
    expect(file.cases.map((c) => c.name)).toEqual(["small"]);
    expect(leftOut).toBe(
      "mixed.json: left out case huge has 2 × 32769 = 65,538 cells; the player replays at most 65,536 (check a batch this large in the conformance view or the playground) (and 1 more case).",
    );
    expect(readPlayerFile(bytesOf([small]), "small.json").leftOut).toBeNull();
  });

  it("refuses a file with nothing small enough, saying why", () => {
    expect(() => readPlayerFile(bytesOf([huge]), "big.json")).toThrow(
      /^big\.json: case huge has 2 × 32769 = 65,538 cells; the player replays at most 65,536/,
    );
  });

  it("refuses a playground batch above the limit before building any of it", () => {
    const state = {
      ...DEFAULT_PLAYGROUND_STATE,
      data: { source: "preset" as const, preset: "dense" as const, seed: 1, rows: 64, tokens: 32768, ragged: false },
    };
    expect(sourceSizeProblem({ kind: "state", state, label: "big" })).toMatch(
      /^This batch has 64 × 32768 = 2,097,152 cells; the player replays at most 65,536/,
    );
    expect(sourceSizeProblem({ kind: "state", state: DEFAULT_PLAYGROUND_STATE, label: "default" })).toBeNull();
  });
});
