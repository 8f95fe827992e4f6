import { describe, expect, it } from "vitest";
import { ScanInputError } from "../../core";
import { buildCase, buildCaseFile } from "../../io/caseBuilder";
import { DEFAULT_PLAYGROUND_STATE } from "../../io/presets";
import { readPlayerFile } from "./playerFile";
import { MAX_PLAYER_CELLS, playerErrorText, sourceSizeProblem } from "./playerLimits";

const discounted = (rows: number, cols: number, name: string, chunkSize = 64) =>
  buildCase(
    {
      kind: "discounted",
      rewards: { rows, cols, data: new Float64Array(rows * cols).fill(0.5) },
      discount: 0.9,
      chunkSize,
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
      "mixed.json: left out case huge has 2 × 32769 tokens in chunks of 64: 2 × 513 chunks × 64 = 65,664 padded cells; the player replays at most 65,536 (check a batch this large in the conformance view or with npx scanlab check); case huge2 has 2 × 32769 tokens in chunks of 64: 2 × 513 chunks × 64 = 65,664 padded cells; the player replays at most 65,536 (check a batch this large in the conformance view or with npx scanlab check).",
    );
    expect(readPlayerFile(bytesOf([small]), "small.json").leftOut).toBeNull();
  });

  it("refuses a file with nothing small enough, saying why", () => {
    expect(() => readPlayerFile(bytesOf([huge]), "big.json")).toThrow(
      /^big\.json: case huge has 2 × 32769 tokens in chunks of 64: 2 × 513 chunks × 64 = 65,664 padded cells; the player replays at most 65,536/,
    );
  });

  it("refuses a playground batch above the limit before building any of it", () => {
    const state = {
      ...DEFAULT_PLAYGROUND_STATE,
      data: { source: "preset" as const, preset: "dense" as const, seed: 1, rows: 64, tokens: 32768, ragged: false },
    };
    expect(sourceSizeProblem({ kind: "state", state, label: "big" })).toMatch(
      /^This batch has 64 × 32768 tokens in chunks of \d+: 64 × \d+ chunks × \d+ = 2,097,152 padded cells; the player replays at most 65,536/,
    );
    expect(sourceSizeProblem({ kind: "state", state: DEFAULT_PLAYGROUND_STATE, label: "default" })).toBeNull();
  });

  it("counts the padded chunk, not rows × tokens: 1 row of 2 tokens in chunks of 16384 or more is refused", () => {
    for (const C of [16384, 65536, 2 ** 20]) {
      // Without its power tables (C numbers each): only the shape matters here.
      const wide = { ...discounted(1, 2, `wide_${C}`, C), float32_pow_tables: undefined };
      expect(() => readPlayerFile(bytesOf([wide]), "wide.json")).toThrow(/^wide\.json: case wide_\d+ has /);
      const file = buildCaseFile([wide]);
      expect(sourceSizeProblem({ kind: "case", file, fileName: "wide.json", index: 0 })).toMatch(
        /^wide\.json: case wide_\d+ has (chunks of [\d,]+: a [\d,]+ × [\d,]+ discount matrix|1 × 2 tokens in chunks of [\d,]+: .* padded cells)/,
      );
    }
    const state = {
      ...DEFAULT_PLAYGROUND_STATE,
      chunkSize: 16384,
      data: { source: "preset" as const, preset: "dense" as const, seed: 1, rows: 1, tokens: 2, ragged: false },
    };
    expect(sourceSizeProblem({ kind: "state", state, label: "wide" })).toBe(
      "This batch has chunks of 16,384: a 16,384 × 16,384 discount matrix (268,435,456 entries), each chunk drawn whole; the player builds at most 512 × 512 (chunk size up to 512) (check a batch this large in the conformance view or with npx scanlab check)",
    );
    expect(sourceSizeProblem({ kind: "state", state: { ...state, chunkSize: 512 }, label: "ok" })).toBeNull();
    expect(sourceSizeProblem({ kind: "state", state: { ...state, chunkSize: 513 }, label: "no" })).toMatch(
      /chunks of 513/,
    );
  });

  it("names the file, the case and the field of a chunk size of 0, and lists every case left out", () => {
    const withChunk0 = (name: string) => {
      const c = structuredClone(discounted(1, 4, name));
      if (c.kind !== "discounted") throw new Error("expected a discounted case");
      c.params.chunk_size = 0;
      delete c.float32_pow_tables;
      return c;
    };
    const zero = withChunk0("zero");
    const alsoZero = withChunk0("zero2");
    const small = discounted(2, 40, "small");
    const { file, leftOut } = readPlayerFile(bytesOf([zero, small, alsoZero]), "zeros.json");
    expect(file.cases.map((c) => c.name)).toEqual(["small"]);
    expect(leftOut).toBe(
      "zeros.json: left out case zero: params.chunk_size is 0: slime raises ZeroDivisionError: integer modulo by zero, so there is no scan to replay; case zero2: params.chunk_size is 0: slime raises ZeroDivisionError: integer modulo by zero, so there is no scan to replay.",
    );
    expect(() => readPlayerFile(bytesOf([zero]), "zero.json")).toThrow(
      "zero.json: case zero: params.chunk_size is 0: slime raises ZeroDivisionError: integer modulo by zero",
    );
  });

  it("names the file and case of any error the replay raises", () => {
    const c = discounted(1, 4, "c1");
    const file = buildCaseFile([c]);
    const error = new ScanInputError("integer modulo by zero", "ZeroDivisionError");
    expect(playerErrorText({ kind: "case", file, fileName: "f.json", index: 0 }, error)).toBe(
      "f.json: case c1: ZeroDivisionError: integer modulo by zero",
    );
  });
});
