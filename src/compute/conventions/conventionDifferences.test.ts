import { describe, expect, it } from "vitest";
import type { ConventionEstimator, Library } from "../../core";
import {
  type DifferenceInput,
  describeDifferences,
  describeSpans,
  holes,
  largestDifference,
  maskedSpans,
} from "./conventionDifferences";
import { conventionReference } from "./conventionRun";

/** Two rows: row 0 has a hole at 3–5 and a masked tail at 9; row 1 has no mask at all. */
const masks = [
  [1, 1, 1, 0, 0, 0, 1, 1, 1, 0],
  [1, 1, 1, 1],
];
const kl = [
  [0.1, 0.2, 0.1, 0.5, 0.5, 0.5, 0.1, 0.2, 0.1, 0.3],
  [0.1, 0.1, 0.1, 0.1],
];
const values = [
  [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1],
  [0.5, 0.5, 0.5, 0.5],
];

function inputFor(
  estimator: ConventionEstimator,
  libraries: Library[],
  options: { normalize?: boolean; outcomes?: number[]; klCoef?: number; clip?: [number, number] | null } = {},
): DifferenceInput {
  const outcomes = options.outcomes ?? [1, -1];
  const klCoef = options.klCoef ?? 0.1;
  const rewardClip: [number, number] | null = options.clip === undefined ? [-10, 10] : options.clip;
  const reference = conventionReference({
    estimator,
    libraries,
    batch: {
      rewards: outcomes,
      kl: kl.map((row) => Float64Array.from(row)),
      lossMasks: masks,
      ...(estimator === "gae" ? { values: values.map((row) => Float64Array.from(row)) } : {}),
    },
    params: {
      gamma: 0.9,
      lambd: 0.8,
      klCoef,
      normalize: options.normalize ?? false,
      rewardClipRange: rewardClip,
    },
  });
  const runs = reference.runs.map((run) => {
    if (!run.ok) throw new Error(run.error);
    return { library: run.library, tables: run.tables, rewardIndex: run.rewardIndex };
  });
  return {
    estimator,
    rows: 2,
    cols: reference.cols,
    lengths: reference.lengths,
    masks,
    kl,
    outcomes,
    klCoef,
    normalize: options.normalize ?? false,
    rewardClip,
    focusRow: 0,
    runs,
  };
}

const rules = (input: DifferenceInput) => describeDifferences(input).map((d) => d.rule);
const textOf = (input: DifferenceInput, rule: string) => describeDifferences(input).find((d) => d.rule === rule)?.text;

describe("spans of masked tokens", () => {
  it("finds every masked run, and the holes with a mask-1 token after them", () => {
    expect(maskedSpans(masks[0], 0)).toEqual([
      { row: 0, start: 3, end: 5 },
      { row: 0, start: 9, end: 9 },
    ]);
    expect(holes(masks[0], 0)).toEqual([{ row: 0, start: 3, end: 5 }]);
    expect(holes(masks[1], 1)).toEqual([]);
  });

  it("names the focus row's spans first and counts the rest", () => {
    const spans = [
      { row: 0, start: 3, end: 5 },
      { row: 2, start: 7, end: 7 },
      { row: 2, start: 9, end: 12 },
    ];
    expect(describeSpans(spans, 0)).toBe("the masked tokens 3–5 of row 0 (and 2 more in 1 other row)");
    expect(describeSpans(spans, 2)).toBe("the masked tokens 7 and 9–12 of row 2 (and 1 more in 1 other row)");
    expect(describeSpans([{ row: 1, start: 4, end: 4 }], 0)).toBe("the masked token 4 of row 1");
  });
});

describe("describeDifferences", () => {
  it("REINFORCE++, verl against slime: the cut carry, the re-masked advantages, the reward on the last token", () => {
    const input = inputFor("reinforce_pp", ["verl", "slime"]);
    expect(rules(input)).toEqual(["reward-index", "carry", "re-mask", "largest"]);
    expect(textOf(input, "reward-index")).toBe(
      "verl puts the outcome reward on the last token (token 9 of row 0), slime on the last mask-1 token (token 8).",
    );
    const carry = textOf(input, "carry") ?? "";
    expect(carry).toMatch(/^verl cuts the return at the masked tokens 3–5 of row 0; slime carries it through/);
    // Before the hole slime still sees the outcome (0.9^k · 1) that verl's cut carry hides.
    const [, amount] = /differ by up to ([\d.e-]+)/.exec(carry) ?? [];
    expect(Number(amount)).toBeGreaterThan(0.3);
  });

  it("REINFORCE++, slime against OpenRLHF with the outcome inside the clip: only the stored KL differs", () => {
    const input = inputFor("reinforce_pp", ["slime", "openrlhf"]);
    expect(rules(input)).toEqual(["kl-stored", "largest"]);
    expect(textOf(input, "kl-stored")).toBe(
      "OpenRLHF keeps the KL penalty of the masked tokens 3–5 and 9 of row 0 in its token rewards and masks it out in the estimator; slime writes 0 there (only the token rewards differ).",
    );
    expect(textOf(input, "largest")).toMatch(/in the token rewards at row 0, token 3\.$/);
    // With no KL penalty at all they agree, up to the order in which the chunked and serial scans add.
    expect(textOf(inputFor("reinforce_pp", ["slime", "openrlhf"], { klCoef: 0 }), "largest")).toMatch(
      /^slime and OpenRLHF (give the same returns|agree up to float64 rounding)/,
    );
    expect(textOf(inputFor("reinforce_pp", ["slime", "slime" as Library]), "largest")).toBe(
      "slime and slime give the same returns, advantages and token rewards on these inputs.",
    );
  });

  it("names OpenRLHF's clip only when an outcome falls outside it", () => {
    const clipped = inputFor("reinforce_pp", ["slime", "openrlhf"], { outcomes: [12, -1] });
    expect(textOf(clipped, "reward-clip")).toBe(
      "OpenRLHF clips the outcome reward to [-10, 10]: row 0's 12 becomes 10; slime keeps it.",
    );
    expect(rules(inputFor("reinforce_pp", ["slime", "openrlhf"], { outcomes: [12, -1], clip: null }))).not.toContain(
      "reward-clip",
    );
  });

  it("GAE: slime charges KL on masked tokens, and each library treats them its own way", () => {
    const input = inputFor("gae", ["slime", "verl"]);
    expect(rules(input)).toEqual(["kl-masked", "gae-masked", "largest"]);
    expect(textOf(input, "kl-masked")).toMatch(
      /^slime charges the KL penalty on the masked tokens 3–5 and 9 of row 0; verl does not \(token rewards differ by up to 0\.05 there\)\.$/,
    );
    expect(textOf(input, "gae-masked")).toMatch(/verl skips them/);
    // OpenRLHF stores the penalty too; its GAE masks it out.
    expect(textOf(inputFor("gae", ["slime", "openrlhf"]), "kl-masked")).toBe(
      "slime charges the KL penalty on the masked tokens 3–5 and 9 of row 0; OpenRLHF keeps it in its token rewards, but its GAE multiplies them by the mask.",
    );
    // Without a KL penalty there is nothing to charge.
    expect(rules(inputFor("gae", ["slime", "verl"], { klCoef: 0 }))).not.toContain("kl-masked");
  });

  it("whitening: Bessel's correction between OpenRLHF and the others, one pass against two between slime and verl", () => {
    const openrlhf = textOf(inputFor("reinforce_pp", ["slime", "openrlhf"], { normalize: true }), "whitening");
    expect(openrlhf).toMatch(/OpenRLHF whitens the advantages without Bessel's correction \(variance over N = 10/);
    const verl = textOf(inputFor("reinforce_pp", ["slime", "verl"], { normalize: true }), "whitening");
    expect(verl).toMatch(/^slime computes the whitening variance in one pass/);
    expect(rules(inputFor("reinforce_pp", ["slime", "openrlhf"]))).not.toContain("whitening");
  });

  it("the closing sentence names the largest difference and where it is", () => {
    const input = inputFor("reinforce_pp", ["slime", "verl"]);
    const worst = largestDifference(input.runs[0].tables, input.runs[1].tables, input.lengths, input.cols);
    expect(worst.value).toBeGreaterThan(0);
    expect(textOf(input, "largest")).toContain(`at row ${worst.row}, token ${worst.token}`);
  });

  it("compares the library shown with each other one", () => {
    const input = inputFor("reinforce_pp", ["slime", "openrlhf", "verl"]);
    const pairs = describeDifferences(input).map((d) => d.pair.join("-"));
    expect(new Set(pairs)).toEqual(new Set(["slime-openrlhf", "slime-verl"]));
  });

  it("with NaN in the inputs, counts what each library lost and prints no NaN as a size", () => {
    // NaN KL inside row 0's hole: −β·(NaN·0) is NaN in both libraries' token rewards; slime's one
    // chunk loses the whole row, verl's loop carries it back through token 0 only (carry·mask, NaN·0 = NaN).
    const nanKl = kl.map((row, b) => Float64Array.from(row, (x, t) => (b === 0 && t === 4 ? Number.NaN : x)));
    const reference = conventionReference({
      estimator: "reinforce_pp",
      libraries: ["slime", "verl"],
      batch: {
        rewards: [1, -1],
        kl: nanKl,
        lossMasks: masks,
      },
      params: { gamma: 0.9, klCoef: 0.1, normalize: false, rewardClipRange: null },
      allowNonFinite: true,
    });
    const runs = reference.runs.map((run) => {
      if (!run.ok) throw new Error(run.error);
      return { library: run.library, tables: run.tables, rewardIndex: run.rewardIndex };
    });
    const sentences = describeDifferences({
      ...inputFor("reinforce_pp", ["slime", "verl"]),
      kl: nanKl,
      runs,
    });
    const text = (rule: string) => sentences.find((d) => d.rule === rule)?.text ?? "";
    expect(text("non-finite")).toBe(
      "NaN / ∞ in the inputs: slime loses 21 values, verl 11 (11 in both), each where its own rules carry them; they are left out of every figure here.",
    );
    expect(text("largest")).toMatch(/^Largest difference \|verl − slime\| where both are finite: \S+ in the /);
    expect(text("carry")).toMatch(/differ by up to an amount NaN \/ ∞ hides \(on all 3 of those tokens\)/);
    for (const d of sentences) expect(d.text.replaceAll("NaN / ∞", "")).not.toMatch(/NaN|Infinity/);
  });
});
