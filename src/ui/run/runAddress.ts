import { KL_LOSS_TYPES, SLIME_ESTIMATORS, type SlimeSettings } from "../../core";

/**
 * The run view's settings in the address, under slime's own argument names
 * (`?view=run&advantage_estimator=ppo&gamma=0.99&lambd=0.95&kl_coef=0.02&normalize_advantages=1`),
 * so a link reopens the same replay. The dump itself is the user's: it stays in this browser
 * (IndexedDB), never in a link.
 */
const NUMBERS = {
  gamma: "gamma",
  lambd: "lambd",
  kl_coef: "klCoef",
  context_parallel_size: "contextParallelSize",
} as const satisfies Record<string, keyof SlimeSettings>;
const FLAGS = {
  normalize_advantages: "normalizeAdvantages",
  use_rollout_logprobs: "useRolloutLogprobs",
} as const satisfies Record<string, keyof SlimeSettings>;

export interface RunAddress {
  settings: Partial<SlimeSettings>;
  /** Each parameter that was ignored, naming the value and what is accepted. */
  problems: string[];
}

export function runSettingsFromSearch(search: string): RunAddress {
  const params = new URLSearchParams(search);
  const settings: Partial<SlimeSettings> = {};
  const problems: string[] = [];
  const one = (name: string): string | null => {
    const values = params.getAll(name);
    if (values.length > 1) {
      problems.push(`Address: ${name} appears ${values.length} times; ignored`);
      return null;
    }
    return values[0] ?? null;
  };
  const estimator = one("advantage_estimator");
  if (estimator !== null) {
    if ((SLIME_ESTIMATORS as readonly string[]).includes(estimator)) {
      settings.advantageEstimator = estimator as SlimeSettings["advantageEstimator"];
    } else {
      problems.push(
        `Address: advantage_estimator=${estimator}: expected one of ${SLIME_ESTIMATORS.join(", ")}; ignored`,
      );
    }
  }
  const klType = one("kl_loss_type");
  if (klType !== null) {
    if ((KL_LOSS_TYPES as readonly string[]).includes(klType))
      settings.klLossType = klType as SlimeSettings["klLossType"];
    else problems.push(`Address: kl_loss_type=${klType}: expected one of ${KL_LOSS_TYPES.join(", ")}; ignored`);
  }
  for (const [name, key] of Object.entries(NUMBERS)) {
    const raw = one(name);
    if (raw === null) continue;
    const value = Number(raw);
    const valid =
      raw.trim() !== "" &&
      Number.isFinite(value) &&
      (key === "contextParallelSize" ? Number.isInteger(value) && value >= 1 && value <= 64 : value >= 0);
    if (valid) settings[key] = value;
    else
      problems.push(
        `Address: ${name}=${raw}: expected ${key === "contextParallelSize" ? "an integer from 1 to 64" : "a number ≥ 0"}; ignored`,
      );
  }
  for (const [name, key] of Object.entries(FLAGS)) {
    const raw = one(name);
    if (raw === null) continue;
    if (raw === "1" || raw === "true") settings[key] = true;
    else if (raw === "0" || raw === "false") settings[key] = false;
    else problems.push(`Address: ${name}=${raw}: expected 1 or 0; ignored`);
  }
  return { settings, problems };
}

/**
 * The query string for the settings the user gave (those read off the dump are not written: a link
 * then opens any dump with the settings its own numbers say), keeping the view and any parameter it
 * does not own.
 */
export function runSettingsToSearch(given: Partial<SlimeSettings>, previousSearch = ""): string {
  const params = new URLSearchParams(previousSearch);
  const put = (name: string, value: string | undefined) =>
    value === undefined ? params.delete(name) : params.set(name, value);
  put("advantage_estimator", given.advantageEstimator);
  for (const [name, key] of Object.entries(NUMBERS)) put(name, given[key]?.toString());
  put("kl_loss_type", given.klLossType);
  for (const [name, key] of Object.entries(FLAGS))
    put(name, given[key] === undefined ? undefined : given[key] ? "1" : "0");
  return `?${params.toString()}`;
}
