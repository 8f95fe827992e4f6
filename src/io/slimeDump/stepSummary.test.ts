import { describe, expect, it } from "vitest";
import { bytesSource } from "../tensorFiles/byteSource";
import { checkDump } from "./checkDump";
import { fixtureBytes } from "./dumpFixtures";
import type { UnderstoodDump } from "./dumpTypes";
import { openDump } from "./openDump";
import { shareOf, summariseStep } from "./stepSummary";
import { pairDumps } from "./understandDump";

function opened(path: string): UnderstoodDump {
  const result = openDump(bytesSource(fixtureBytes(path), path.split("/").pop() ?? path));
  if (!result.ok) throw result.error;
  return result.value.dump;
}

describe("summariseStep", () => {
  it("a passing train dump: counts, lengths, padding and the worst gap within its bound", () => {
    const dump = opened("generated/ppo_g1_l1_kl001_k3.pt");
    const check = checkDump(dump, {});
    const s = summariseStep(17, dump, check);
    const lengths = dump.samples.map((x) => x.responseLength);
    const tokens = lengths.reduce((a, b) => a + b, 0);
    const max = Math.max(...lengths);
    expect(s).toMatchObject({ step: 17, samples: 4, tokens, verdict: "passed", why: null });
    expect(s.length).toEqual({ mean: tokens / 4, max });
    expect(s.paddingShare).toBeCloseTo(1 - tokens / (4 * max), 15);
    expect(s.truncatedShare).toBeNull();
    for (const field of ["advantages", "returns"] as const) {
      const worst = s.worst[field];
      expect(worst).not.toBeNull();
      expect(worst?.share).toBeLessThanOrEqual(1);
      expect(worst?.gap).toBe(check.replay.ok ? check.replay.samples[worst?.sample ?? 0][field].worstGap : Number.NaN);
    }
  });

  it("the KL mean counts only the tokens with loss mask 1", () => {
    const dump = opened("generated/ppo_g1_l1_kl001_k3.pt");
    let sum = 0;
    let n = 0;
    for (const x of dump.samples) {
      x.kl?.forEach((v, t) => {
        if (t < x.responseLength && x.lossMask[t] !== 0) {
          sum += v;
          n++;
        }
      });
    }
    expect(n).toBeGreaterThan(0);
    expect(summariseStep(17, dump, null).klMean).toBeCloseTo(sum / n, 12);
  });

  it("rewards: the raw rewards where every sample has one, mean and population spread", () => {
    const dump = pairDumps(
      opened("generated/rpp_norm_g1_kl002_k2.pt"),
      opened("generated/rollout_of_rpp_norm_g1_kl002_k2.pt"),
      "rollout_data/14.pt",
    );
    const s = summariseStep(14, dump, checkDump(dump, {}));
    const raw = dump.samples.map((x) => x.rawReward as number);
    const mean = raw.reduce((a, b) => a + b, 0) / raw.length;
    const std = Math.sqrt(raw.reduce((a, b) => a + (b - mean) ** 2, 0) / raw.length);
    expect(s.reward?.of).toBe("raw");
    expect(s.reward?.mean).toBeCloseTo(mean, 12);
    expect(s.reward?.std).toBeCloseTo(std, 12);
    // The rollout dump says each Sample's status: the truncated share is known.
    const truncated = dump.samples.filter((x) => x.rollout?.status === "truncated").length;
    expect(s.truncatedShare).toBe(truncated / dump.samples.length);
    expect(s.verdict).toBe("passed");
  });

  it("a dump carrying a known bug fails, with why and a worst gap over its bound", () => {
    const dump = opened("variants/whiten_per_cp_rank.pt");
    const s = summariseStep(102, dump, checkDump(dump, {}));
    expect(s.verdict).toBe("failed");
    expect(s.why).toBeTruthy();
    const worst = Math.max(s.worst.advantages?.share ?? 0, s.worst.returns?.share ?? 0);
    expect(worst).toBeGreaterThan(1);
  });

  it("not checked: no verdict and no worst gap, with why", () => {
    const dump = opened("generated/rollout_of_rpp_norm_g1_kl002_k2.pt");
    const s = summariseStep(14, dump, null, "no train dump of step 14");
    expect(s).toMatchObject({ verdict: "not checked", why: "no train dump of step 14", samples: 8 });
    expect(s.worst).toEqual({ advantages: null, returns: null });
  });
});

describe("a gap's share of its bound", () => {
  it("is infinite where the bound is infinite, NaN or zero: such a gap was held to no bound", () => {
    expect(shareOf(1e-3, Number.POSITIVE_INFINITY)).toBe(Number.POSITIVE_INFINITY);
    expect(shareOf(1e-3, Number.NaN)).toBe(Number.POSITIVE_INFINITY);
    expect(shareOf(1e-3, 0)).toBe(Number.POSITIVE_INFINITY);
    expect(shareOf(Number.NaN, 1)).toBe(Number.POSITIVE_INFINITY);
    expect(shareOf(0, Number.POSITIVE_INFINITY)).toBe(0);
    expect(shareOf(1, 4)).toBe(0.25);
  });
});
