import { describe, expect, it } from "vitest";
import { runSettingsFromSearch, runSettingsToSearch } from "./runAddress";

describe("the run view's address", () => {
  it("round-trips the settings under slime's argument names, keeping the view", () => {
    const settings = {
      advantageEstimator: "ppo" as const,
      gamma: 0.99,
      lambd: 0.95,
      klCoef: 0.02,
      normalizeAdvantages: true,
    };
    const search = runSettingsToSearch(settings, "?view=run");
    expect(search).toContain("view=run");
    expect(search).toContain("advantage_estimator=ppo");
    expect(search).toContain("normalize_advantages=1");
    expect(runSettingsFromSearch(search)).toEqual({ settings, problems: [] });
  });

  it("writes only the settings the user gave: a setting read off the dump leaves the address", () => {
    const search = runSettingsToSearch({ gamma: 0.99 }, "?view=run&kl_coef=0.1&normalize_advantages=1");
    expect(search).toBe("?view=run&gamma=0.99");
  });

  it("names every value it ignores", () => {
    const read = runSettingsFromSearch(
      "?advantage_estimator=dpo&gamma=-1&kl_coef=abc&normalize_advantages=yes&lambd=0.9&lambd=0.8",
    );
    expect(read.settings).toEqual({});
    expect(read.problems).toEqual([
      "Address: advantage_estimator=dpo: expected one of grpo, gspo, cispo, ppo, reinforce_plus_plus, reinforce_plus_plus_baseline; ignored",
      "Address: gamma=-1: expected a number ≥ 0; ignored",
      "Address: lambd appears 2 times; ignored",
      "Address: kl_coef=abc: expected a number ≥ 0; ignored",
      "Address: normalize_advantages=yes: expected 1 or 0; ignored",
    ]);
  });
});
