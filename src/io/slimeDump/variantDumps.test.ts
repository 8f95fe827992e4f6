import { describe, expect, it } from "vitest";
import type { InferredParameter } from "../../core";
import { checkDump, readTensorFile, type UnderstoodDump, understandDump } from ".";
import { fixtureBytes, fixtureJson } from "./dumpFixtures";

interface VariantEntry {
  file: string;
  variant: string | null;
  expect: "pass" | "fail";
  changed_samples?: number[];
  settings: { advantage_estimator: string; gamma: number; lambd: number; kl_coef: number };
}

const ENTRIES = (fixtureJson("variants/manifest.json") as { files: VariantEntry[] }).files;

function open(file: string): UnderstoodDump {
  const read = readTensorFile(fixtureBytes(`variants/${file}`), file);
  if (!read.ok) throw read.error;
  const dump = understandDump(read.value.root, file);
  if (!dump.ok) throw dump.error;
  return dump.value;
}

/** The scalar settings each estimator reads, with the manifest's name for each. */
const USES: Record<string, [InferredParameter, "gamma" | "lambd" | "kl_coef"][]> = {
  grpo: [],
  reinforce_plus_plus_baseline: [["klCoef", "kl_coef"]],
  reinforce_plus_plus: [
    ["gamma", "gamma"],
    ["klCoef", "kl_coef"],
  ],
  ppo: [
    ["gamma", "gamma"],
    ["lambd", "lambd"],
    ["klCoef", "kl_coef"],
  ],
};

/**
 * Every dump slime wrote with a known bug patched back in, and its correct twin, checked with no
 * settings at all: everything is read off the dump. The twin passes; the bug dump fails and the
 * diagnosis names its bug (the float32 whitening cancellation is named by the advantages' verdict).
 * The settings read off a bug dump are the run's, because the fits set aside the equations the
 * bug breaks.
 */
describe("the variant dumps, checked with no settings given", () => {
  for (const entry of ENTRIES) {
    it(`${entry.file}`, () => {
      const check = checkDump(open(entry.file), {});
      const { inferred } = check;
      if (entry.variant === null) {
        expect(check.passed, check.firstDeparture ?? "").toBe(true);
      } else {
        expect(check.passed).toBe(false);
        if (entry.variant === "whiten_float32_cancellation") {
          const causes = check.replay.ok ? check.replay.samples.map((s) => s.advantages?.cause ?? "") : [];
          expect(causes.some((c) => /cancelled/.test(c))).toBe(true);
        } else {
          expect(check.diagnosis?.best?.variant.id, check.diagnosis?.sentence).toBe(entry.variant);
        }
      }
      // Equations are set aside only where the bug changed the stored numbers, never on a twin.
      const leftOut = inferred.notes.filter((n) => /equations left out/.test(n));
      if (entry.variant === null) expect(leftOut).toEqual([]);
      for (const note of leftOut) {
        const named = (/\(in samples? ([\d, ]+)/.exec(note)?.[1] ?? "").split(", ").map(Number);
        for (const i of named) expect(entry.changed_samples, note).toContain(i);
      }
      // Where the kept equations reproduce the returns to float32 rounding the estimates are the run's
      // to 1e-3; where they do not (a bug that moves every token, bfloat16), within their stated uncertainty.
      const reproduces = !inferred.notes.some((n) => /the stored returns to float32 rounding \(χ²/.test(n));
      const truth = entry.settings;
      const family = ["gspo", "cispo"].includes(truth.advantage_estimator) ? "grpo" : truth.advantage_estimator;
      for (const [key, name] of USES[family]) {
        const e = inferred.estimates[key];
        if (!e || key in inferred.notIdentifiable) {
          expect(inferred.notIdentifiable[key], key).toBeDefined();
          continue;
        }
        const want = truth[name];
        const gap = Math.abs(e.value - want);
        expect(gap, `${key} ${e.value} ± ${e.uncertainty}`).toBeLessThanOrEqual(e.uncertainty);
        if (entry.variant === null || reproduces) {
          expect(gap, `${key} ${e.value}`).toBeLessThanOrEqual(1e-3 * Math.abs(want));
        }
      }
    });
  }
});
