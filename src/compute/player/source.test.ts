import { describe, expect, it } from "vitest";
import { parseCaseFile } from "../../io/caseFile";
import { engineCopy, exampleSource, PLAYER_EXAMPLES, playableCases, sourceProblem } from "./source";

describe("what the player opens", () => {
  it("turns each built-in example into a problem of float32 values", () => {
    for (const example of PLAYER_EXAMPLES) {
      const { problem, label } = sourceProblem(exampleSource(example.id));
      expect(label).toBe(example.label);
      expect(problem.chunkSize).toBe(example.state.chunkSize);
      const values =
        problem.kind === "reinforce_pp"
          ? problem.batch.kl.flatMap((row) => Array.from(row))
          : Array.from(problem.rewards.data);
      for (const v of values) expect(Math.fround(v)).toBe(v);
    }
    const long = sourceProblem(exampleSource("long")).problem;
    expect(long.kind === "discounted" && long.rewards.cols).toBe(4096);
  });

  it("lists the cases of a file that are one chunked scan, and opens them", () => {
    const file = parseCaseFile(
      JSON.stringify({
        meta: { schema_version: 1 },
        cases: [
          {
            name: "fully_masked",
            kind: "reinforce_pp",
            lengths: [2],
            params: { kl_coef: 0.1, gamma: 1, chunk_size: 2 },
            inputs: { rewards: [1], kl: [[0, 0]], loss_masks: [[0, 0]] },
            expected: null,
            chunked_float32: null,
            expect_error: "AssertionError: Sequence at index 0 is fully masked.",
          },
          {
            name: "tiny",
            kind: "discounted",
            shape: [1, 3],
            params: { discount: 0.5, chunk_size: 2 },
            inputs: { rewards: [1, 2, 3] },
            expected: { returns: [2.75, 3.5, 3] },
            chunked_float32: { returns: [2.75, 3.5, 3] },
          },
        ],
      }),
      "two.json",
    );
    expect(playableCases(file).map((c) => c.case.name)).toEqual(["tiny"]);
    const { problem, label } = sourceProblem({ kind: "case", file, fileName: "two.json", index: 1 });
    expect(label).toBe("two.json · tiny");
    expect(problem).toMatchObject({ kind: "discounted", discount: 0.5, chunkSize: 2 });
  });

  it("gives the engine float32 copies it may take away", () => {
    const { problem } = sourceProblem(exampleSource("reinforce"));
    const copy = engineCopy(problem);
    if (copy.kind !== "reinforce_pp" || problem.kind !== "reinforce_pp") throw new Error("expected REINFORCE++");
    expect(copy.batch.kl[0]).toBeInstanceOf(Float32Array);
    expect(copy.batch.kl[0].buffer).not.toBe(problem.batch.kl[0].buffer);
    expect(Array.from(copy.batch.kl[0])).toEqual(Array.from(problem.batch.kl[0]));
  });
});
