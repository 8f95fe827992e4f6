import { describe, expect, it } from "vitest";
import type { SlimeSettings } from "../../core";
import { openFixtureDump } from "../../testing/dumpTamperKit";
import { diagnoseDump, diagnoseOverCpSizes, dumpSettings } from ".";
import { MANIFEST, manifestSettings, SHARED_TRAIN_DUMPS } from "./dumpFixtures";

describe("diagnoseDump: no known variant matches a dump slime wrote correctly", () => {
  const correct = [
    ...MANIFEST.filter((e) => e.expect === "pass" && e.kind === "train").map((e) => ({
      file: `generated/${e.file}`,
      settings: manifestSettings(e) as Partial<SlimeSettings>,
    })),
    ...SHARED_TRAIN_DUMPS.map((d) => ({ file: d.file, settings: d.settings as Partial<SlimeSettings> })),
  ];
  for (const { file, settings } of correct) {
    it(`${file}`, () => {
      const dump = openFixtureDump(file);
      const given = dumpSettings(dump, settings);
      const d = diagnoseDump(dump, given);
      expect(d?.matches).toEqual([]);
      expect(d?.samplesDeparting).toEqual([]);
      // Nor with the CP size unknown, every trial size tried.
      const unknown = diagnoseOverCpSizes(dump, { ...given, contextParallelSize: 1 }, [2, 4, 8]);
      expect(unknown?.matches ?? []).toEqual([]);
    });
  }

  it("a rollout dump has nothing to diagnose", () => {
    const rollout = openFixtureDump("slime-shared/rollout_eval_5.pt");
    expect(diagnoseDump(rollout, dumpSettings(rollout, {}))).toBeNull();
  });
});
