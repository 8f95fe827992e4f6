import { describe, expect, it } from "vitest";
import { type ReplayResult, RowArena, replaySlime, SLIME_DEFAULTS, type SlimeSettings } from "../../core";
import { openFixtureDump } from "../../testing/dumpTamperKit";
import { expectSameNumbers } from "../../testing/sameNumbers";
import { dumpReplayInputs } from ".";
import { fixtureJson, MANIFEST, type ManifestEntry, manifestSettings, SHARED_TRAIN_DUMPS } from "./dumpFixtures";

const TRAIN = [
  ...MANIFEST.filter((e) => e.kind === "train" && e.expect === "pass").map((e) => ({
    file: `generated/${e.file}`,
    settings: manifestSettings(e) as Partial<SlimeSettings>,
  })),
  ...SHARED_TRAIN_DUMPS.map((d) => ({ file: d.file, settings: d.settings as Partial<SlimeSettings> })),
  // Each known bug beside its twin: failing verdicts, causes named, a cancelled whitening among them.
  ...(fixtureJson("variants/manifest.json") as { files: ManifestEntry[] }).files.flatMap((e) =>
    [e.file, (e as ManifestEntry & { twin: string }).twin].map((file) => ({
      file: `variants/${file}`,
      settings: manifestSettings(e) as Partial<SlimeSettings>,
    })),
  ),
];

/** Everything a replay gives, with each sample's reference and bounds read (a windowed replay recomputes them). */
function plain(result: ReplayResult) {
  if (!result.ok) return result;
  const { lendRows: _lent, referenceKl: _kl, whitenAdvantages: _whiten, ...rest } = result;
  return {
    ...rest,
    samples: result.samples.map((s) => ({
      passed: s.passed,
      length: s.length,
      advantages: s.advantages,
      returns: s.returns,
      kl: s.kl,
      reference: s.reference,
      bounds: s.bounds,
    })),
  };
}

/** A windowed replay lends its rows (a replay of the whole batch at once holds them). */
const windowed = (result: ReplayResult) => result.ok && result.lendRows !== undefined;

/**
 * Every training fixture with its settings, each under both normalisations (the first pass over
 * the windows sums the whitening's statistics).
 */
function* trials() {
  for (const { file, settings: given } of TRAIN) {
    const dump = openFixtureDump(file);
    const { samples, stored } = dumpReplayInputs(dump);
    const settings = { ...SLIME_DEFAULTS, ...dump.settingsGuess, ...given };
    for (const normalizeAdvantages of [settings.normalizeAdvantages, !settings.normalizeAdvantages])
      yield { file, samples, stored, trial: { ...settings, normalizeAdvantages } };
  }
}

describe("a replay judged a window of samples at a time", () => {
  it("gives every verdict, reference and bound of the whole batch's replay, bit for bit", () => {
    let windowedDumps = 0;
    let cancelled = 0;
    for (const { file, samples, stored, trial } of trials()) {
      const { normalizeAdvantages } = trial;
      const whole = replaySlime(samples, stored, trial);
      // Windows of a few samples, down to one sample each.
      for (const windowTokens of [1, 700]) {
        const byWindows = replaySlime(samples, stored, trial, { windowTokens });
        expectSameNumbers(plain(byWindows), plain(whole), `${file}, normalise ${normalizeAdvantages}, ${windowTokens}`);
        if (windowed(byWindows)) windowedDumps += 1;
        if (byWindows.ok && whole.ok && byWindows.lendRows) {
          const lent: unknown[] = [];
          byWindows.lendRows((i, { reference, bounds }) => {
            lent[i] = {
              reference: {
                advantages: reference.advantages.slice(),
                returns: reference.returns.slice(),
                kl: reference.kl.slice(),
              },
              bounds: { advantages: bounds.advantages.slice(), returns: bounds.returns.slice() },
            };
          });
          const rows = whole.samples.map((s) => ({ reference: s.reference, bounds: s.bounds }));
          expectSameNumbers(lent, rows, `${file} lent, normalise ${normalizeAdvantages}, ${windowTokens}`);
          const kl = whole.samples.map((_, i) => byWindows.referenceKl?.(i));
          expectSameNumbers(
            kl,
            whole.samples.map((s) => s.reference.kl),
            `${file} KL alone`,
          );
        }
        if (windowed(byWindows) && byWindows.ok && byWindows.whitening?.stats.conditioned === false) cancelled += 1;
      }
    }
    // Most dumps take the windowed path (the rest replay whole: a fit on the reference, a replay that raises).
    expect(windowedDumps).toBeGreaterThan(TRAIN.length);
    // A cancelled whitening is judged in windows too (its verdicts read the raw bounds' mean over the batch).
    expect(cancelled).toBeGreaterThan(0);
  });
});

describe("a whole batch's replay with its rows from one arena (a run's steps)", () => {
  it("gives every verdict, reference and bound of a replay with fresh rows, the arena reused batch after batch", () => {
    const rows = new RowArena(0);
    for (const { file, samples, stored, trial } of trials()) {
      const { normalizeAdvantages } = trial;
      const fresh = plain(replaySlime(samples, stored, trial));
      // Read before the next replay takes the arena's rows again.
      expectSameNumbers(
        plain(replaySlime(samples, stored, trial, { rows })),
        fresh,
        `${file}, normalise ${normalizeAdvantages}`,
      );
    }
  });
});
