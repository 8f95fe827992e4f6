import { describe, expect, it } from "vitest";
import {
  judgeRewardStage,
  replayWholeBatchRewards,
  SLIME_DEFAULTS,
  type SlimeSettings,
  unevenGroupsBatchNorm,
} from "../../core";
import type { PyDict } from "../tensorFiles/tensorTypes";
import {
  dumpSettings,
  judgeDumpRewards,
  readTensorFile,
  recoverPromptGroups,
  replaySamples,
  type UnderstoodDump,
  understandDump,
} from ".";
import { fixtureBytes, MANIFEST, manifestSettings } from "./dumpFixtures";

/** A generated dump's object tree, to read as it is or to tamper with in memory first. */
function tree(file: string): PyDict {
  const read = readTensorFile(fixtureBytes(`generated/${file}`), file);
  if (!read.ok) throw read.error;
  return read.value.root as PyDict;
}

function understood(root: PyDict, file: string): UnderstoodDump {
  const dump = understandDump(root, file);
  if (!dump.ok) throw dump.error;
  return dump.value;
}

function settingsOf(file: string, dump: UnderstoodDump): SlimeSettings {
  const entry = MANIFEST.find((e) => e.file === file);
  return dumpSettings(
    dump,
    manifestSettings(entry ?? { file, kind: "train", expect: "pass" }) as Partial<SlimeSettings>,
  );
}

const samplesOf = (root: PyDict) => root.get("samples") as PyDict[];

// Written by make_fixtures.py with --n-samples-per-prompt 2 and --rollout-batch-size 2: each prompt's
// group normalised on its own, as slime does when the sample count is n × rollout_batch_size.
const GROUPED = [
  "grpo_kl0.pt",
  "gspo_norm_kl001_k3.pt",
  "cispo_kl0.pt",
  "rppb_norm_kl005_k1.pt",
  "rppb_kl003_lowvar.pt",
];
const UNGROUPED = ["rpp_norm_g1_kl002_k2.pt", "rpp_rolloutlp_g099_kl002_k3.pt", "ppo_g1_l1_kl001_k3.pt"];

/** A variant dump (cases/dumps/variants/): uneven groups 4/3/4, written by slime's own whole-batch fallback. */
function variantTree(file: string): PyDict {
  const read = readTensorFile(fixtureBytes(`variants/${file}`), file);
  if (!read.ok) throw read.error;
  return read.value.root as PyDict;
}

describe("the reward stage on the generated dumps", () => {
  for (const file of GROUPED) {
    it(`${file}: groups of 2 recovered from the prompts; each group normalised on its own, within bound`, () => {
      const dump = understood(tree(file), file);
      expect(dump.promptGroups).toEqual({ nSamplesPerPrompt: 2, sizes: [2, 2], uneven: [] });
      expect(dump.samples.map((s) => s.group)).toEqual([0, 0, 1, 1]);
      expect(dump.samples.map((s) => s.rawReward)).toEqual([1, 0, 0.3, -0.5]);
      const settings = settingsOf(file, dump);
      const intended = judgeDumpRewards(dump, settings);
      expect(intended).toMatchObject({ checked: true, passed: true, departing: [], unbounded: [] });
      const samples = replaySamples(dump);
      const fallback = judgeRewardStage(samples, settings, replayWholeBatchRewards(samples, settings));
      expect(fallback).toMatchObject({ checked: true, passed: false });
    });
  }

  for (const [file, estimator] of [
    ["uneven_groups_batch_norm_grpo.pt", "grpo"],
    ["uneven_groups_batch_norm_rppb.pt", "reinforce_plus_plus_baseline"],
  ] as const) {
    it(`${file}: slime's whole-batch fallback departs from each group on its own; the variant reproduces it; the twin passes`, () => {
      const settings = { ...SLIME_DEFAULTS, advantageEstimator: estimator, nSamplesPerPrompt: 4 };
      const dump = understood(variantTree(file), file);
      expect(dump.promptGroups?.uneven.length).toBeGreaterThan(0);
      const intended = judgeDumpRewards(dump, settings);
      expect(intended).toMatchObject({ checked: true, passed: false });
      const samples = replaySamples(dump);
      expect(unevenGroupsBatchNorm.applies(samples, settings)).toBe(true);
      const fallback = judgeRewardStage(samples, settings, replayWholeBatchRewards(samples, settings));
      expect(fallback).toMatchObject({ checked: true, passed: true, departing: [], unbounded: [] });
      const twinFile = file.replace(".pt", "__twin.pt");
      expect(judgeDumpRewards(understood(variantTree(twinFile), twinFile), settings)).toMatchObject({ passed: true });
    });
  }

  for (const file of UNGROUPED) {
    it(`${file}: one sample per prompt, the raw rewards passed through, within bound`, () => {
      const dump = understood(tree(file), file);
      expect(dump.promptGroups?.nSamplesPerPrompt).toBe(1);
      const verdict = judgeDumpRewards(dump, settingsOf(file, dump));
      expect(verdict).toMatchObject({ checked: true, passed: true });
      expect(unevenGroupsBatchNorm.applies(replaySamples(dump), settingsOf(file, dump))).toBe(false);
    });
  }

  it("a tampered stored reward fails, naming the sample and its group (grpo, intended math)", () => {
    const root = tree("grpo_kl0.pt");
    const s2 = samplesOf(root)[2];
    s2.set("rewards", (s2.get("rewards") as number) + 1e-4);
    const dump = understood(root, "grpo_kl0.pt");
    const verdict = judgeDumpRewards(dump, settingsOf("grpo_kl0.pt", dump));
    expect(verdict).toMatchObject({ checked: true, passed: false, departing: [2] });
    expect(verdict.checked && verdict.message).toBe(
      "the stored rewards differ from group normalisation of the raw rewards in sample 2, group 1 of size 2, by up to 0.0001",
    );
  });

  it("a tampered stored reward fails, naming the sample and its group (reinforce_plus_plus, intended math)", () => {
    const root = tree("rpp_norm_g1_kl002_k2.pt");
    samplesOf(root)[5].set("rewards", 0.5);
    const dump = understood(root, "rpp_norm_g1_kl002_k2.pt");
    const verdict = judgeDumpRewards(dump, settingsOf("rpp_norm_g1_kl002_k2.pt", dump));
    expect(verdict.checked && verdict.message).toBe(
      "the stored rewards differ from the raw rewards in sample 5, group 5 of size 1, by up to 0.25",
    );
  });

  it("the raw rewards from the top-level raw_reward when local_raw_reward is missing; a disagreement is noted", () => {
    const root = tree("grpo_kl0.pt");
    for (const s of samplesOf(root)) s.delete("local_raw_reward");
    expect(understood(root, "grpo_kl0.pt").samples.map((s) => s.rawReward)).toEqual([1, 0, 0.3, -0.5]);
    const other = tree("grpo_kl0.pt");
    samplesOf(other)[1].set("local_raw_reward", 0.75);
    const dump = understood(other, "grpo_kl0.pt");
    expect(dump.samples[1].rawReward).toBe(0.75);
    expect(dump.notes.join("\n")).toMatch(/local_raw_reward and raw_reward\[rollout_position\] disagree in 1 samples/);
  });

  it("without prompt tokens the groups are not recovered and a grpo dump's rewards are not checked, with why", () => {
    const root = tree("grpo_kl0.pt");
    samplesOf(root)[3].delete("tokens");
    const dump = understood(root, "grpo_kl0.pt");
    expect(dump.samples.map((s) => s.group)).toEqual([null, null, null, null]);
    expect(dump.promptGroups).toBeUndefined();
    const verdict = judgeDumpRewards(dump, settingsOf("grpo_kl0.pt", dump));
    expect(!verdict.checked && verdict.why).toMatch(/prompt groups are not known/);
  });
});

describe("recoverPromptGroups", () => {
  const p = (...tokens: number[]) => Float64Array.from(tokens);

  it("a new group whenever the prompt changes, in rollout order; the other sizes are uneven", () => {
    const samples = [
      { rolloutPosition: 0, prompt: p(1, 2) },
      { rolloutPosition: 1, prompt: p(1, 2) },
      { rolloutPosition: 2, prompt: p(1, 2, 3) },
      { rolloutPosition: 4, prompt: p(5) },
      { rolloutPosition: 3, prompt: p(1, 2, 3) },
      { rolloutPosition: 5, prompt: p(5) },
      { rolloutPosition: 6, prompt: p(7) },
    ];
    const out = recoverPromptGroups(samples, "t.pt");
    expect(out.groups).toEqual([0, 0, 1, 2, 1, 2, 3]);
    expect(out.summary).toEqual({
      nSamplesPerPrompt: 2,
      sizes: [2, 2, 2, 1],
      uneven: [{ group: 3, size: 1, samples: [6] }],
    });
    expect(out.notes[0]).toMatch(/uneven prompt groups: most have 2 samples .* group 3 has 1 \(samples 6\)/);
  });

  it("the same prompt twice in a row is read as two groups of the usual size, with a note", () => {
    const samples = [p(1), p(1), p(1), p(1), p(2), p(2), p(3), p(3)].map((prompt, i) => ({
      rolloutPosition: i,
      prompt,
    }));
    const out = recoverPromptGroups(samples, "t.pt");
    expect(out.groups).toEqual([0, 0, 1, 1, 2, 2, 3, 3]);
    expect(out.summary?.uneven).toEqual([]);
    expect(out.notes[0]).toMatch(/samples 0–3 share one prompt, 2 times the usual 2/);
  });
});
