import { describe, expect, it } from "vitest";
import { generateRows } from "../../io/rowGenerators";
import { type CpPanelParams, cpPanelModel, equality, promptLengthProblem } from "./cpPanelModel";
import { CP_STEPS, piecesText, stepCaption } from "./cpSteps";

const params = (over: Partial<CpPanelParams> = {}): CpPanelParams => ({
  estimator: "reinforce_pp",
  gamma: 0.99,
  lambd: 0.95,
  klCoef: 0.05,
  chunkSize: 16,
  cpSize: 4,
  promptLength: 30,
  ...over,
});

const [multiTurn] = generateRows("multi-turn", 7, 1, 300, false);

const modelOf = (row = multiTurn, over: Partial<CpPanelParams> = {}) => {
  const result = cpPanelModel(row, params(over));
  if (!result.ok) throw new Error(result.message);
  return result.model;
};

describe("the context-parallel panel's model", () => {
  for (const estimator of ["reinforce_pp", "gae", "discounted"] as const) {
    it(`reassembles ${estimator} to the cp_size 1 result bit for bit, for cp_size 1–8`, () => {
      for (let cpSize = 1; cpSize <= 8; cpSize++) {
        const model = modelOf(multiTurn, { estimator, cpSize });
        expect(model.equality).toEqual({ equal: true, identical: 300, total: 300, firstDifference: null });
        expect(model.ranks.reduce((sum, r) => sum + r.localOutput.length, 0)).toBe(300);
      }
    });
  }

  it("each rank's pieces are the output at its response indices, in local order", () => {
    const model = modelOf(multiTurn, { cpSize: 2, promptLength: 8 });
    // T = 308, c = 77: rank 1 holds chunks 1 and 2, response indices 70–146 then 147–223.
    expect(piecesText(model, 1)).toBe("70–146 then 147–223");
    expect(model.ranks[1].chunks).toEqual([1, 2]);
    expect([...model.ranks[1].localOutput.subarray(0, 3)]).toEqual([...model.output.subarray(70, 73)]);
    expect([...model.ranks[1].localInput.subarray(77)]).toEqual([...model.gathered.subarray(147, 224)]);
  });

  it("reports a difference, value by value, against cp_size 1", () => {
    const a = Float32Array.from([1, 2, 3]);
    expect(equality(a, Float32Array.from([1, 2, 3])).equal).toBe(true);
    const other = equality(a, Float32Array.from([1, -0, 3]));
    expect(other).toEqual({ equal: false, identical: 2, total: 3, firstDifference: 1 });
    expect(equality(Float32Array.from([0]), Float32Array.from([-0])).equal).toBe(false);
  });

  it("warns where PPO's reward misses the last token, with the advantages' difference", () => {
    // A short sample at cp_size 8: T = 2 + 20, c = 2, rank 0 holds logit 1 only: response token 0.
    const [short] = generateRows("terminal", 3, 1, 20, false);
    const model = modelOf(short, { cpSize: 8, promptLength: 2 });
    expect(model.ppo.placement).toEqual({ lastToken: 19, landsAt: 0, correct: false });
    expect(model.ppo.note).toContain("not the last one (19)");
    expect(model.ppo.difference?.maxAbs).toBeGreaterThan(0.1);
    expect(model.ppo.error).toBeNull();
    // Rank 0 holding no response token: slime's IndexError.
    const none = modelOf(short, { cpSize: 8, promptLength: 10 });
    expect(none.ppo.error).toBe("IndexError: index -1 is out of bounds for dimension 0 with size 0");
    expect(modelOf(multiTurn, { cpSize: 8, promptLength: 30 }).ppo).toMatchObject({ difference: null, error: null });
  });

  it("whitens per rank against the DP×CP group, with the difference", () => {
    const model = modelOf(multiTurn, { cpSize: 4 });
    const rows = model.whitening.rows;
    expect(rows.map((r) => r.tokens).reduce((a, b) => a + b, 0)).toBe(300);
    // The group's statistics are the same on every rank; a rank's own differ from them.
    expect(new Set(rows.map((r) => r.group?.mean)).size).toBe(1);
    expect(rows.some((r) => r.own && r.group && r.own.mean !== r.group.mean)).toBe(true);
    expect(rows.every((r) => r.maxDifference === null || r.maxDifference >= 0)).toBe(true);
    // Both whitenings of each rank's local vector, to draw them against each other.
    expect(rows.every((r) => r.groupWhitened?.length === r.tokens && r.ownWhitened?.length === r.tokens)).toBe(true);
    expect(modelOf(multiTurn, { cpSize: 1 }).whitening.rows[0].maxDifference).toBe(0);
  });

  it("says why a row cannot be shown", () => {
    expect(cpPanelModel({ length: 0 }, params())).toEqual({
      ok: false,
      message: "The selected row has no tokens: give it a length first.",
    });
    const masked = { length: 3, kl: [0, 0, 0], lossMask: [0, 0, 0] as (0 | 1)[], outcome: 1 };
    expect(cpPanelModel(masked, params())).toEqual({
      ok: false,
      message: "Row 0 cannot be scanned: Sequence at index 0 is fully masked.",
    });
    // The panel scans the row as a batch of one: the message names the playground's row, not core's row 0.
    expect(cpPanelModel(masked, params({ rowIndex: 3 }))).toEqual({
      ok: false,
      message: "Row 3 cannot be scanned: Sequence at index 3 is fully masked.",
    });
    const kl = Array.from({ length: 200 }, () => 0.01);
    kl[140] = Number.NaN;
    const withNaN = { length: 200, kl, lossMask: kl.map(() => 1 as const), outcome: 1 };
    expect(cpPanelModel(withNaN, params({ rowIndex: 1 }))).toEqual({
      ok: false,
      message: "Row 1 cannot be scanned: kl has a non-finite value at row 1, token 140: NaN",
    });
    expect(promptLengthProblem("0")).toContain("at least 1");
    expect(promptLengthProblem("abc")).toContain("whole number");
    expect(promptLengthProblem("64")).toBeNull();
  });

  it("captions every step with the sample's numbers", () => {
    const model = modelOf(multiTurn, { cpSize: 2, promptLength: 8 });
    expect(stepCaption("split", model)).toContain("cut into 4 chunks of 77");
    expect(stepCaption("shift", model)).toContain("comes from logit 7");
    expect(stepCaption("pieces", model)).toContain("rank 1: 70–146 then 147–223");
    for (const step of CP_STEPS) expect(stepCaption(step, model).length).toBeGreaterThan(40);
  });
});
