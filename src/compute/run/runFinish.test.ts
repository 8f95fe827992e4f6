import { describe, expect, it } from "vitest";
import { SLIME_DEFAULTS, type SlimeSettings } from "../../core";
import { parseCaseFile } from "../../io/caseFile";
import { decodeState, encodeState } from "../../io/shareLink";
import { readTensorFile, replayDump, understandDump } from "../../io/slimeDump";
import { fixtureBytes } from "../../io/slimeDump/dumpFixtures";
import { plainToPlayground } from "./plainToPlayground";
import { casesExport, fileStem, pytestFileExport } from "./runExports";
import { runGrid } from "./runGrid";
import { batchGlance, summaryText } from "./runModel";
import { sampleToPlayground } from "./runToPlayground";

function open(file: string) {
  const tree = readTensorFile(fixtureBytes(`slime-shared/${file}`), file);
  if (!tree.ok) throw new Error(tree.error.message);
  const dump = understandDump(tree.value.root, file);
  if (!dump.ok) throw new Error(dump.error.message);
  return dump.value;
}

const RPP: SlimeSettings = { ...SLIME_DEFAULTS, advantageEstimator: "reinforce_plus_plus", gamma: 0.99, klCoef: 0.05 };

describe("the run view's finish", () => {
  it("says what a plain file and a rollout dump are, with no NaN", () => {
    const plain = open("plain_dict.pt");
    const text = summaryText("plain_dict.pt", plain, batchGlance(plain), [], null, SLIME_DEFAULTS);
    expect(text).toBe(
      "plain_dict.pt: not a slime train dump, nothing to replay (lanes found: rewards (4 rows), lossMask (4 rows)); open it in the playground.",
    );
    expect(batchGlance(plain).rewards).toBeNull();
    const rollout = open("rollout_eval_5.pt");
    expect(summaryText("r.pt", rollout, batchGlance(rollout), [], null, SLIME_DEFAULTS)).toMatch(
      /^r\.pt: a rollout dump \(4 Samples\) holds no advantages; choose its train dump too/,
    );
  });

  it("opens a plain file's lanes in the playground, one row per row of the file", () => {
    const state = plainToPlayground(open("batch.npz").lanes ?? { unused: [] });
    if (typeof state === "string") throw new Error(state);
    expect(state.estimator).toBe("gae");
    expect(state.data.source === "inline" && state.data.rows).toHaveLength(4);
    expect(plainToPlayground({ unused: [] })).toMatch(/no rewards or KL lane/);
  });

  it("carries a sample's dump comparison through a link, lanes as float32", () => {
    const dump = open("train_rpp_g099_kl005.pt");
    const s = dump.samples[2];
    const state = sampleToPlayground(
      { length: s.responseLength, reward: s.reward, lossMask: s.lossMask, kl: s.kl ?? null, values: null },
      RPP,
      {
        file: "train_rpp_g099_kl005.pt",
        step: 3,
        sample: 2,
        rolloutPosition: 2,
        batchSize: 8,
        estimator: "reinforce_plus_plus",
        normalized: false,
        advantages: Array.from(s.advantages ?? []),
        returns: Array.from(s.returns ?? []),
      },
    );
    if (typeof state === "string") throw new Error(state);
    const back = decodeState(encodeState(state));
    expect(back.ok).toBe(true);
    if (!back.ok) return;
    expect(back.state.dump?.returns).toEqual(Array.from(s.returns ?? [], Math.fround));
    expect(back.state.dump).toMatchObject({ file: "train_rpp_g099_kl005.pt", step: 3, sample: 2, batchSize: 8 });
    expect(back.state.data.source === "inline" && back.state.data.rows[0].length).toBe(s.responseLength);
  });

  it("exports the chosen samples as the CLI's case file, and as pytest; the whole batch when whitened", () => {
    const dump = open("train_rpp_g099_kl005.pt");
    const one = casesExport(dump, RPP, [2], "train_rpp_g099_kl005.pt");
    if (typeof one === "string") throw new Error(one);
    expect(one.fileName).toBe("train_rpp_g099_kl005_sample_2.cases.json");
    const parsed = parseCaseFile(new TextEncoder().encode(one.text), one.fileName);
    expect(parsed.cases).toHaveLength(1);
    const whole = casesExport(dump, { ...RPP, normalizeAdvantages: true }, [2], "x.pt");
    if (typeof whole === "string") throw new Error(whole);
    expect(whole.note).toMatch(/^the whole batch of 8 samples/);
    const py = pytestFileExport(dump, RPP, [1, 2], "a.pt + b.pt");
    if (typeof py === "string") throw new Error(py);
    expect(py.fileName).toBe("test_a_samples_1_2.py");
    expect(pytestFileExport(dump, { ...RPP, advantageEstimator: "grpo" }, [1], "a.pt")).toMatch(/no scan to watch/);
    expect(fileStem("../we ird\u0000.pt")).toBe("we_ird");
  });

  it("draws the KL as its gap to the recomputed KL, or as itself where nothing recomputed it", () => {
    const dump = open("train_rpp_g099_kl005.pt");
    const replayed = runGrid(dump, replayDump(dump, RPP), "kl");
    expect(replayed?.referenceIs).toBe("replayed");
    expect(replayed?.bound).toBeNull();
    const zero = runGrid(dump, replayDump(dump, { ...RPP, klCoef: 0 }), "kl");
    expect(zero?.referenceIs).toBe("zero");
    expect(zero?.reference.every((v) => v === 0)).toBe(true);
  });
});
