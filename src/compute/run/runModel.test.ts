import { describe, expect, it } from "vitest";
import { bySeverity, SLIME_DEFAULTS, type SlimeSettings } from "../../core";
import {
  bitsSentence,
  checkBits,
  checkDump,
  readTensorFile,
  replayDump,
  replayInWindows,
  understandDump,
} from "../../io/slimeDump";
import { fixtureBytes, SHARED_TRAIN_DUMPS } from "../../io/slimeDump/dumpFixtures";
import { gridFields, replayedRows, runGrid } from "./runGrid";
import { batchGlance, sampleRows, summaryText, worstFirst } from "./runModel";

function open(file: string) {
  const tree = readTensorFile(fixtureBytes(file), file);
  if (!tree.ok) throw new Error(tree.error.message);
  const dump = understandDump(tree.value.root, file);
  if (!dump.ok) throw new Error(dump.error.message);
  return dump.value;
}

describe("the run view's model", () => {
  for (const shared of SHARED_TRAIN_DUMPS) {
    it(`${shared.file}: every sample within its bound with the settings it was written with`, () => {
      const dump = open(shared.file);
      const settings = { ...SLIME_DEFAULTS, ...dump.settingsGuess, ...shared.settings } as SlimeSettings;
      const replay = replayDump(dump, settings);
      const rows = sampleRows(dump, replay);
      expect(rows).toHaveLength(8);
      expect(rows.every((row) => row.verdict?.passed)).toBe(true);
      const glance = batchGlance(dump);
      expect(glance.samples).toBe(8);
      expect(glance.maxLength).toBe(Math.max(...dump.samples.map((s) => s.responseLength)));
      expect(glance.paddingShare).toBeGreaterThan(0);
      expect(summaryText("3.pt", dump, glance, rows, replay, settings)).toMatch(
        /^3\.pt \(train dump\): 8 samples, \d+ response tokens; .*: all 8 within their float32 bounds of the float64 reference\.$/,
      );
    });
  }

  it("puts the samples over their bound first, and says how many are", () => {
    const shared = SHARED_TRAIN_DUMPS[1];
    const dump = open(shared.file);
    // The ppo dump was written with normalised advantages: replayed without, its advantages are off.
    const wrong = {
      ...SLIME_DEFAULTS,
      ...dump.settingsGuess,
      ...shared.settings,
      normalizeAdvantages: false,
    } as SlimeSettings;
    const replay = replayDump(dump, wrong);
    const rows = worstFirst(sampleRows(dump, replay));
    expect(rows[0].verdict?.passed).toBe(false);
    expect(rows[0].verdict?.worstFraction).toBeGreaterThan(1);
    // Failing first, then by the largest gap as a share of its field's scale.
    const keys = rows.map((row): [number, number, number] => row.verdict?.severity ?? [0, 0, 0]);
    expect([...keys].sort(bySeverity)).toEqual(keys);
    expect(keys.findIndex((k) => k[0] === 0)).not.toBe(0);
    const text = summaryText("3.pt", dump, batchGlance(dump), rows, replay, wrong);
    expect(text).toMatch(/: \d of 8 within their float32 bounds, \d over\.$/);
    const grid = runGrid(dump, replay, "advantages");
    expect(grid?.rows).toBe(8);
    expect(grid?.actual[0]).toBe(dump.samples[0].advantages?.[0]);
  });
});

describe("the run view's verdict first, its grids and bits after", () => {
  it("a field's grid from rows read once is the grid of a whole replay, windowed or not; the bits as checkDump's", () => {
    const shared = SHARED_TRAIN_DUMPS[1];
    const whole = open(shared.file);
    const windowed = open(shared.file);
    replayInWindows(windowed);
    const settings = { ...SLIME_DEFAULTS, ...whole.settingsGuess, ...shared.settings } as SlimeSettings;
    const a = replayDump(whole, settings);
    const b = replayDump(windowed, settings);
    expect(gridFields(whole, a)).toEqual(["advantages", "returns", "kl"]);
    const rows = replayedRows(b);
    for (const field of gridFields(whole, a)) {
      const left = runGrid(whole, a, field);
      const right = runGrid(windowed, b, field, rows);
      expect(right?.referenceIs).toBe(left?.referenceIs);
      expect(right?.reference).toEqual(left?.reference);
      expect(right?.bound).toEqual(left?.bound);
      expect(right?.actual).toEqual(left?.actual);
      expect(right?.lossMask).toEqual(left?.lossMask);
    }
    const late = checkDump(whole, shared.settings, undefined, { bits: false });
    expect(late.bits).toBeNull();
    const bits = checkBits(whole, late.settings, late.stages);
    const early = checkDump(whole, shared.settings);
    expect(bits).not.toBeNull();
    expect(bits && bitsSentence(bits)).toBe(early.bits && bitsSentence(early.bits));
  });
});

describe("the run view's kept rows", () => {
  it("keeps a sample's raw advantages alone where they make its whitened advantages and ppo's returns, to the same grids", () => {
    for (const shared of SHARED_TRAIN_DUMPS) {
      for (const normalize of [true, false]) {
        const whole = open(shared.file);
        const windowed = open(shared.file);
        replayInWindows(windowed);
        const settings = {
          ...SLIME_DEFAULTS,
          ...whole.settingsGuess,
          ...shared.settings,
          normalizeAdvantages: normalize,
        } as SlimeSettings;
        const a = replayDump(whole, settings);
        const b = replayDump(windowed, settings);
        const rows = replayedRows(b, (i) => windowed.samples[i].values);
        if (!rows || !a.ok) throw new Error("replayed");
        const derived = rows.filter((r) => Object.getOwnPropertyDescriptor(r.reference, "returns")?.get).length;
        // ppo's returns are A + V; REINFORCE++'s are not its advantages plus anything stored.
        expect(derived, `${shared.file}, normalise ${normalize}`).toBe(
          settings.advantageEstimator === "ppo" ? rows.length : 0,
        );
        for (const field of gridFields(whole, a)) {
          const left = runGrid(whole, a, field);
          const right = runGrid(windowed, b, field, rows);
          expect(right?.reference, `${shared.file} ${field}, normalise ${normalize}`).toEqual(left?.reference);
          expect(right?.bound).toEqual(left?.bound);
        }
        // Read back to front, each field of two samples in turn: a made row is the sample's own.
        for (let i = rows.length - 1; i > 0; i--) {
          const later = rows[i].reference.advantages.slice();
          const earlier = rows[i - 1].reference.advantages.slice();
          expect(rows[i].reference.returns).toEqual(a.samples[i].reference.returns);
          expect(later).toEqual(a.samples[i].reference.advantages);
          expect(earlier).toEqual(a.samples[i - 1].reference.advantages);
        }
      }
    }
  });
});

describe("a dump's sample in the playground", () => {
  it("REINFORCE++: the KL lane, the mask and the reward as the outcome; ppo: GAE over −β·kl with the reward on the last token", async () => {
    const { sampleToPlayground } = await import("./runToPlayground");
    const settings = { ...SLIME_DEFAULTS, gamma: 0.99, klCoef: 0.5, lambd: 0.95 };
    const sample = { length: 3, reward: 1, lossMask: [1, 0, 1], kl: [0.5, 1, 2], values: [0.25, 0.5, 0.75] };
    const rpp = sampleToPlayground(sample, { ...settings, advantageEstimator: "reinforce_plus_plus" });
    expect(typeof rpp !== "string" && rpp.estimator).toBe("reinforce_pp");
    expect(typeof rpp !== "string" && rpp.data).toEqual({
      source: "inline",
      rows: [{ length: 3, kl: [0.5, 1, 2], lossMask: [1, 0, 1], outcome: 1 }],
    });
    const ppo = sampleToPlayground(sample, { ...settings, advantageEstimator: "ppo" });
    if (typeof ppo === "string" || ppo.data.source !== "inline") throw new Error("expected a state");
    expect(ppo.estimator).toBe("gae");
    expect(ppo.data.rows[0].rewards).toEqual([-0.25, -0.5, 0]);
    expect(sampleToPlayground(sample, { ...settings, advantageEstimator: "grpo" })).toMatch(/no scan to watch/);
    expect(sampleToPlayground({ ...sample, values: null }, { ...settings, advantageEstimator: "ppo" })).toMatch(
      /no critic values/,
    );
  });
});
