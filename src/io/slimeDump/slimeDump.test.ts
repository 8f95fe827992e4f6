import { describe, expect, it } from "vitest";
import type { SlimeSettings } from "../../core";
import { openFixtureDump } from "../../testing/dumpTamperKit";
import { dumpSettings, pairDumps, readTensorFile, replayDump, searchSettings, understandDump } from ".";
import { fixtureBytes, fixtureJson, MANIFEST, manifestSettings, SHARED_TRAIN_DUMPS } from "./dumpFixtures";

interface Reference {
  samples: { rollout_position: number; advantages: number[]; returns: number[] }[];
}

describe("the shared real dumps, with the settings they were written with", () => {
  for (const d of SHARED_TRAIN_DUMPS) {
    it(`${d.file}: every sample within bound, the float64 reference equal to reference_*.json to 1e-12`, () => {
      const dump = openFixtureDump(d.file);
      expect(dump.kind).toBe("train");
      const result = replayDump(dump, dumpSettings(dump, d.settings as Partial<SlimeSettings>));
      if (!result.ok) throw new Error(result.error);
      expect(result.samples.map((s) => s.passed)).toEqual(dump.samples.map(() => true));
      const reference = fixtureJson(d.reference) as Reference;
      expect(reference.samples.map((s) => s.rollout_position)).toEqual(dump.samples.map((s) => s.rolloutPosition));
      result.samples.forEach((s, i) => {
        for (const field of ["advantages", "returns"] as const) {
          const want = reference.samples[i][field];
          // Relative to the sample's largest value: a whitened value near 0 is (a − μ) after cancellation.
          const scale = Math.max(...want.map(Math.abs));
          const worst = want.reduce((m, w, t) => Math.max(m, Math.abs(s.reference[field][t] - w)), 0);
          expect(worst).toBeLessThanOrEqual(1e-12 * scale);
        }
      });
    });
  }

  it("guesses what each dump decides: ppo from the values, the KL formula from kl", () => {
    expect(openFixtureDump(SHARED_TRAIN_DUMPS[0].file).settingsGuess).toEqual({ klLossType: "k1" });
    expect(openFixtureDump(SHARED_TRAIN_DUMPS[1].file).settingsGuess).toEqual({
      advantageEstimator: "ppo",
      klLossType: "k2",
    });
  });

  it("guesses --use-rollout-logprobs when the stored kl comes from the rollout engine's log-probs", () => {
    expect(openFixtureDump("generated/rpp_rolloutlp_g099_kl002_k3.pt").settingsGuess).toEqual({
      klLossType: "k3",
      useRolloutLogprobs: true,
    });
    expect(openFixtureDump("generated/grpo_kl0.pt").settingsGuess).toEqual({ klCoef: 0 });
  });

  it("the settings search finds exactly the settings the ppo dump was written with", () => {
    const dump = openFixtureDump(SHARED_TRAIN_DUMPS[1].file);
    const base = dumpSettings(dump, { gamma: 0.99, lambd: 0.95, klCoef: 0.02 });
    const passing = searchSettings(dump, base).filter((t) => t.passed);
    expect(
      passing.map((t) => [t.settings.advantageEstimator, t.settings.normalizeAdvantages, t.settings.klLossType]),
    ).toEqual([["ppo", true, "k2"]]);
  });

  it("wrong settings fail: normalisation off for the ppo dump, another gamma for the rpp dump", () => {
    const ppo = openFixtureDump(SHARED_TRAIN_DUMPS[1].file);
    const unnormalised = replayDump(ppo, dumpSettings(ppo, { gamma: 0.99, lambd: 0.95, klCoef: 0.02 }));
    expect(unnormalised.ok && unnormalised.passed).toBe(false);
    const rpp = openFixtureDump(SHARED_TRAIN_DUMPS[0].file);
    const gamma = replayDump(
      rpp,
      dumpSettings(rpp, { advantageEstimator: "reinforce_plus_plus", gamma: 0.98, klCoef: 0.05 }),
    );
    expect(gamma.ok && gamma.passed).toBe(false);
  });

  it("reads the rollout dump and the plain files, with nothing to replay", () => {
    const rollout = openFixtureDump("slime-shared/rollout_eval_5.pt");
    expect(rollout.kind).toBe("rollout");
    expect(rollout.samples.map((s) => s.rollout?.status)).toEqual(["completed", "truncated", "completed", "completed"]);
    expect(replayDump(rollout, dumpSettings(rollout, {})).ok).toBe(false);
    const plain = openFixtureDump("slime-shared/plain_dict.pt");
    expect(plain.kind).toBe("plain");
    expect(plain.lanes?.rewards).toHaveLength(4);
    expect(plain.lanes?.lossMask?.[0]).toHaveLength(500);
    const npz = openFixtureDump("slime-shared/batch.npz");
    expect(Object.keys(npz.lanes ?? {}).sort()).toEqual(["rewards", "unused", "values"]);
    const withLengths = openFixtureDump("generated/batch_deflated.npz");
    expect(withLengths.lanes?.lengths).toEqual([7, 5, 3]);
    expect(withLengths.lanes?.lossMask).toHaveLength(3);
    expect(withLengths.lanes?.unused).toEqual([]);
  });
});

describe("the generated dumps (every estimator, CP, legacy, rollout pairing)", () => {
  for (const entry of MANIFEST.filter((e) => e.expect === "pass")) {
    it(`${entry.file}: every sample within bound with ${JSON.stringify(entry.settings)}`, () => {
      const dump = openFixtureDump(`generated/${entry.file}`);
      const result = replayDump(dump, dumpSettings(dump, manifestSettings(entry) as Partial<SlimeSettings>));
      if (!result.ok) throw new Error(result.error);
      expect(result.samples.filter((s) => !s.passed).map((s) => s.length)).toEqual([]);
      // The other normalisation does not reproduce the dump (the verdicts can fail).
      const flipped = {
        ...manifestSettings(entry),
        normalizeAdvantages: !entry.settings?.normalize_advantages,
      } as Partial<SlimeSettings>;
      const other = replayDump(dump, dumpSettings(dump, flipped));
      expect(other.ok && other.passed).toBe(false);
    });
  }

  it("pairs a train dump with its rollout dump by rollout_position", () => {
    const pair = MANIFEST.find((e) => e.pairs_with) as { file: string; pairs_with: string };
    const train = openFixtureDump(`generated/${pair.pairs_with}`);
    const rollout = openFixtureDump(`generated/${pair.file}`);
    const paired = pairDumps(train, rollout, pair.file);
    expect(paired.notes).toEqual(train.notes);
    paired.samples.forEach((s) => {
      const sample = rollout.samples[s.rolloutPosition as number];
      expect(s.rollout?.status).toBe(sample.rollout?.status);
      expect(s.responseLength).toBe(sample.responseLength);
      expect(Array.from(s.lossMask)).toEqual(Array.from(sample.lossMask));
    });
    // A rollout dump of another step is noticed, not silently paired.
    const other = pairDumps(train, openFixtureDump("slime-shared/rollout_eval_5.pt"), "eval_5.pt");
    expect(other.notes.length).toBeGreaterThan(0);
  });

  it("the context-parallel dump's fields are full length, and the legacy file replays as its zip does", () => {
    const cp = openFixtureDump("generated/cp2_rpp_norm_g099_kl002_k1.pt");
    cp.samples.forEach((s) => {
      expect(s.advantages).toHaveLength(s.responseLength);
      expect(s.kl).toHaveLength(s.responseLength);
    });
    const zip = openFixtureDump("generated/grpo_kl0.pt");
    const legacy = openFixtureDump("generated/legacy_grpo_kl0.pt");
    expect(legacy.samples).toEqual(zip.samples);
  });

  it("ppo under context parallelism: the reward where CP rank 0 put it, not on the last token", () => {
    const dump = openFixtureDump("generated/cp4_ppo_g1_l095_kl002_k1.pt");
    const given = { advantageEstimator: "ppo", gamma: 1, lambd: 0.95, klCoef: 0.02 } as const;
    const asIfOneRank = replayDump(dump, dumpSettings(dump, given));
    if (!asIfOneRank.ok) throw new Error(asIfOneRank.error);
    // T = 33 over 4 ranks: rank 0's last element is response token 1, not 28 (scanlab cp-layout).
    expect(asIfOneRank.samples.map((s) => s.passed)).toEqual([false, true, true, true]);
    const cp = replayDump(dump, dumpSettings(dump, { ...given, contextParallelSize: 4 }));
    expect(cp.ok && cp.passed).toBe(true);
  });

  it("refuses a train dump whose field has another length than the response, naming it", () => {
    const file = readTensorFile(fixtureBytes("generated/grpo_kl0.pt"), "grpo_kl0.pt");
    if (!file.ok) throw file.error;
    const samples = (file.value.root as Map<string, unknown>).get("samples") as Map<string, unknown>[];
    samples[2].set("response_lengths", 5);
    const dump = understandDump(file.value.root, "grpo_kl0.pt");
    expect(dump.ok).toBe(false);
    if (!dump.ok)
      expect(dump.error.message).toMatch(
        /^grpo_kl0\.pt: field samples\[2\]\.loss_masks: has \d+ tokens, the response has 5/,
      );
  });
});
