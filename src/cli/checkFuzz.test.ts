import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type Json, mutate, mutation, smallValidFile } from "../testing/caseFuzzKit";
import { scanlab } from "../testing/cliTestKit";

const seed = Number(process.env.SCANLAB_FC_SEED ?? 20261129);

describe("scanlab check on fuzzed case files", () => {
  it("ends every run with a verdict or a message: status 0, 1 or 2, never an internal error", async () => {
    const valid = JSON.stringify(smallValidFile());
    await fc.assert(
      fc.asyncProperty(
        fc.array(mutation, { minLength: 1, maxLength: 3 }),
        fc.constantFrom("float64", "float32", "slime-exact"),
        async (mutations, mode) => {
          const json = mutations.reduce<Json>((root, m) => mutate(root, m), JSON.parse(valid));
          const result = await scanlab(["check", "-", "--mode", mode], {}, JSON.stringify(json) ?? "");
          expect(result.stderr).not.toContain("internal error");
          expect([0, 1, 2]).toContain(result.status);
        },
      ),
      { seed, numRuns: 200 },
    );
  }, 60_000);
});
