import { describe, expect, it } from "vitest";
import { CaseFileError, parseCaseFile } from "./caseFile";
import { caseFileText } from "./caseFileText";
import type { SlimeDumpCase } from "./caseSchema";

/** A two-sample slime_dump case written by hand, in the file's own spelling. */
function dumpFile(edit: (c: Record<string, unknown>) => void = () => {}) {
  const c: Record<string, unknown> = {
    name: "d",
    kind: "slime_dump",
    settings: {
      advantage_estimator: "reinforce_plus_plus",
      gamma: 0.99,
      lambd: 1,
      kl_coef: 0.05,
      kl_loss_type: "k1",
      normalize_advantages: false,
      use_rollout_logprobs: false,
      context_parallel_size: 1,
      n_samples_per_prompt: 1,
      rewards_normalization: true,
      grpo_std_normalization: true,
    },
    samples: [
      { reward: 1, loss_mask: [1, 1], kl: [0.1, "NaN"] },
      { reward: "-Infinity", loss_mask: [1], kl: [0] },
    ],
    stored: [
      { advantages: [1, "Infinity"], returns: [1, 2], kl: [0.1, "NaN"] },
      { advantages: [0], returns: [0] },
    ],
  };
  edit(c);
  return JSON.stringify({ meta: { schema_version: 1 }, cases: [c] });
}

const problem = (text: string) => {
  try {
    parseCaseFile(text, "d.json");
  } catch (error) {
    if (error instanceof CaseFileError) return error.message;
    throw error;
  }
  return "";
};

describe("kind slime_dump", () => {
  it("reads NaN and ±Infinity written as text, and writes them back the same way", () => {
    const file = parseCaseFile(dumpFile(), "d.json");
    const c = file.cases[0] as SlimeDumpCase;
    expect(c.samples[0].kl?.[1]).toBeNaN();
    expect(c.samples[1].reward).toBe(Number.NEGATIVE_INFINITY);
    expect(c.stored[0].advantages[1]).toBe(Number.POSITIVE_INFINITY);
    expect(JSON.parse(caseFileText(file))).toEqual(JSON.parse(dumpFile()));
  });

  it("refuses other text, lengths that disagree with the loss mask, a missing stored entry and unknown settings", () => {
    expect(
      problem(
        dumpFile((c) => {
          (c.stored as { returns: unknown[] }[])[0].returns = [1, "nan"];
        }),
      ),
    ).toContain(
      'stored[0].returns[1]: expected a number or one of "NaN", "Infinity", "-Infinity", got the string "nan"',
    );
    expect(
      problem(
        dumpFile((c) => {
          (c.samples as { kl: unknown[] }[])[1].kl = [0, 0];
        }),
      ),
    ).toContain("samples[1].kl: expected 1 numbers (samples[1].loss_mask has 1), got 2");
    expect(problem(dumpFile((c) => (c.stored as unknown[]).pop()))).toContain(
      ".stored: expected 2 entries (one per sample), got 1",
    );
    expect(
      problem(
        dumpFile((c) => {
          (c.settings as Record<string, unknown>).gama = 1;
        }),
      ),
    ).toContain("settings.gama: unknown field");
  });
});
