import { readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { SlimeSettings } from "../../core";
import { type PpoDumpParams, writePpoTrainDump } from "../../testing/ppoTrainDump";
import { MemorySink } from "../../testing/storedZipWriter";
import { bytesSource } from "../tensorFiles/byteSource";
import { checkRunStep, newRunSettingsMemo } from "./carriedSettings";
import { checkDump } from "./checkDump";
import { fixtureBytes, MANIFEST } from "./dumpFixtures";
import type { UnderstoodDump } from "./dumpTypes";
import { openDump } from "./openDump";
import { summariseStep } from "./stepSummary";

function open(bytes: Uint8Array, name: string): UnderstoodDump {
  const opened = openDump(bytesSource(bytes, name));
  if (!opened.ok) throw new Error(opened.error.message);
  return opened.value.dump;
}

/**
 * Each step of `steps` checked as a run (the settings known from earlier steps tried first) and
 * alone (a fresh copy of its file, its own settings read): the rows must be the same, figures and all.
 */
function runAgainstAlone(steps: { name: string; bytes: Uint8Array }[], given: Partial<SlimeSettings> = {}) {
  const memo = newRunSettingsMemo();
  return steps.map(({ name, bytes }, step) => {
    const inRun = open(bytes, name);
    const { check, carriedFrom } = checkRunStep(inRun, given, step, memo);
    const aloneDump = open(bytes, name);
    const alone = checkDump(aloneDump, given);
    expect(summariseStep(step, inRun, check), `${name} as step ${step}`).toEqual(summariseStep(step, aloneDump, alone));
    expect(check.passed, name).toBe(alone.passed);
    return { verdict: check.passed ? "passed" : "failed", carriedFrom };
  });
}

const fixture = (name: string) => ({ name, bytes: fixtureBytes(name) });

async function ppoStep(params: Partial<PpoDumpParams>, seed: number) {
  const sink = new MemorySink();
  const base = { samples: 6, responseMin: 3, responseMax: 200, samplesPerPrompt: 2, seed, rolloutId: seed };
  await writePpoTrainDump(sink, { ...base, ...params }, String(seed));
  return { name: `train_data/${seed}.pt`, bytes: sink.bytes() };
}

describe("checkRunStep", () => {
  it("a middle step written with another γ, then another kl_coef, is read afresh; the steps after go on", async () => {
    const steps = [
      await ppoStep({}, 0),
      await ppoStep({}, 1),
      await ppoStep({ gamma: 0.9 }, 2),
      await ppoStep({ klCoef: 0.05 }, 3),
      await ppoStep({}, 4),
      await ppoStep({}, 5),
    ];
    const rows = runAgainstAlone(steps);
    expect(rows.map((r) => r.verdict)).toEqual(Array(6).fill("passed"));
    // Step 2's γ and step 3's kl_coef fail the known settings: each is read off its own numbers.
    expect(rows.map((r) => r.carriedFrom)).toEqual([null, 0, null, null, null, 4]);
  });

  it("a buggy middle step fails as it does alone, under its own settings; its neighbours pass", () => {
    const variants = readdirSync(new URL("../../../cases/dumps/variants/", import.meta.url))
      .filter((f) => f.endsWith(".pt") && !f.endsWith("__twin.pt"))
      .map((f) => f.replace(/\.pt$/, ""));
    expect(variants.length).toBeGreaterThanOrEqual(13);
    const readAlone: string[] = [];
    for (const variant of variants) {
      const twin = fixture(`variants/${variant}__twin.pt`);
      const rows = runAgainstAlone([twin, fixture(`variants/${variant}.pt`), twin]);
      expect(
        rows.map((r) => r.verdict),
        variant,
      ).toEqual(["passed", "failed", "passed"]);
      expect(rows[1].carriedFrom, variant).toBeNull();
      if (rows[2].carriedFrom === null) readAlone.push(variant);
      else expect(rows[2].carriedFrom, variant).toBe(0);
    }
    // The twins of the whitening's float32 cancellation are near their bounds by design: not a clear pass.
    expect(readAlone).toEqual(["whiten_float32_cancellation_1e3", "whiten_float32_cancellation_1e4"]);
  });

  it("every committed train dump, read as one run, gets the row it gets alone", () => {
    const generated = MANIFEST.filter((e) => e.kind === "train").map((e) => `generated/${e.file}`);
    const variants = readdirSync(new URL("../../../cases/dumps/variants/", import.meta.url))
      .filter((f) => f.endsWith(".pt"))
      .map((f) => `variants/${f}`);
    const names = [
      ...generated,
      ...generated,
      ...variants,
      "slime-shared/train_ppo_g099_l095_kl002.pt",
      "slime-shared/train_rpp_g099_kl005.pt",
      "slime-shared/train_rpp_g099_kl005.pt",
    ];
    const rows = runAgainstAlone(names.map(fixture));
    expect(rows.some((r) => r.carriedFrom !== null)).toBe(true);
  });

  it("settings given hold for every step, carried or not", async () => {
    const steps = [await ppoStep({}, 0), await ppoStep({}, 1), await ppoStep({ gamma: 0.9 }, 2)];
    const rows = runAgainstAlone(steps, { gamma: 1 });
    expect(rows.map((r) => r.verdict)).toEqual(["passed", "passed", "failed"]);
  });
});
