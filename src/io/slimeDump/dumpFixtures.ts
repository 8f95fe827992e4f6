import { readFileSync } from "node:fs";

/** Test helpers: the committed dump fixtures (cases/dumps/README.md) and their manifest. */

const root = new URL("../../../cases/dumps/", import.meta.url);

export function fixtureBytes(path: string): Uint8Array {
  return new Uint8Array(readFileSync(new URL(path, root)));
}

export interface ManifestEntry {
  file: string;
  kind: "train" | "rollout" | "plain" | "hostile";
  expect: "pass" | "tree" | "refuse" | "rollout";
  settings?: Record<string, string | number | boolean>;
  pairs_with?: string;
  reason?: string;
  values?: unknown;
  cp_size?: number;
}

export const MANIFEST: ManifestEntry[] = JSON.parse(
  readFileSync(new URL("generated/manifest.json", root), "utf8"),
).files;

/** A manifest's settings (slime's names) as SlimeSettings fields. */
export function manifestSettings(entry: ManifestEntry) {
  const s = entry.settings ?? {};
  const given: Record<string, unknown> = {};
  const names: Record<string, string> = {
    advantage_estimator: "advantageEstimator",
    gamma: "gamma",
    lambd: "lambd",
    kl_coef: "klCoef",
    kl_loss_type: "klLossType",
    normalize_advantages: "normalizeAdvantages",
    use_rollout_logprobs: "useRolloutLogprobs",
    n_samples_per_prompt: "nSamplesPerPrompt",
    rewards_normalization: "rewardsNormalization",
    grpo_std_normalization: "grpoStdNormalization",
  };
  // rollout_batch_size decides slime's reward grouping but is not a replay setting: the groups come from the prompts.
  for (const [k, v] of Object.entries(s)) if (names[k]) given[names[k]] = v;
  if (entry.cp_size !== undefined) given.contextParallelSize = entry.cp_size;
  return given;
}

/** The shared real dumps, with the settings their names say. */
export const SHARED_TRAIN_DUMPS = [
  {
    file: "slime-shared/train_rpp_g099_kl005.pt",
    reference: "slime-shared/reference_train_rpp_g099_kl005.json",
    settings: { advantageEstimator: "reinforce_plus_plus", gamma: 0.99, klCoef: 0.05 },
    flags: ["--advantage-estimator", "reinforce_plus_plus", "--gamma", "0.99", "--kl-coef", "0.05"],
  },
  {
    file: "slime-shared/train_ppo_g099_l095_kl002.pt",
    reference: "slime-shared/reference_train_ppo_g099_l095_kl002.json",
    settings: { advantageEstimator: "ppo", gamma: 0.99, lambd: 0.95, klCoef: 0.02, normalizeAdvantages: true },
    flags: [
      "--advantage-estimator",
      "ppo",
      "--gamma",
      "0.99",
      "--lambd",
      "0.95",
      "--kl-coef",
      "0.02",
      "--normalize-advantages",
    ],
  },
] as const;

export function fixtureJson(path: string): unknown {
  return JSON.parse(readFileSync(new URL(path, root), "utf8"));
}
