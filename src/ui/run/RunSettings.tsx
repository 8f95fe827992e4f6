import { type InferredSettings, KL_LOSS_TYPES, SLIME_ESTIMATORS, type SlimeSettings } from "../../core";
import { OptionSelect } from "../OptionSelect";

export interface RunSettingsProps {
  settings: SlimeSettings;
  /** Which settings were read off the dump's numbers (marked beside the field) and which the user gave. */
  source: Partial<Record<keyof SlimeSettings, "given" | "inferred">>;
  /** γ, λ and kl_coef as read off the dump, with their uncertainty. */
  estimates: InferredSettings["estimates"];
  onChange(next: SlimeSettings): void;
  onSearch(): void;
  searching: boolean;
  /** Whether a dump is open: before one is, the fields hold slime's defaults, and say so. */
  dumpOpen: boolean;
}

const NUMBER_FIELDS = [
  ["gamma", "gamma", "--gamma: the discount γ"],
  ["lambd", "lambd", "--lambd: GAE's λ (ppo)"],
  ["klCoef", "kl_coef", "--kl-coef: β of the KL penalty"],
  ["contextParallelSize", "context_parallel_size", "--context-parallel-size: where ppo's CP rank 0 puts the reward"],
] as const;

/**
 * The run's arguments under slime's own names: a dump does not store them, so they are read off its
 * own numbers (the recursions are linear in γ, λ and kl_coef) and marked so; a value the user types
 * is theirs. "Find the settings" replays every estimator, normalisation and KL formula.
 */
export function RunSettings({
  settings,
  source,
  estimates,
  onChange,
  onSearch,
  searching,
  dumpOpen,
}: RunSettingsProps) {
  const set = <K extends keyof SlimeSettings>(key: K, value: SlimeSettings[K]) =>
    onChange({ ...settings, [key]: value });
  const guessed = (key: keyof SlimeSettings) => {
    if (source[key] !== "inferred") return null;
    const estimate = (estimates as Record<string, { value: number; uncertainty: number } | undefined>)[key];
    const spread = estimate && estimate.uncertainty > 0 ? ` ± ${estimate.uncertainty.toPrecision(1)}` : "";
    return (
      <span className="muted small" data-testid={`run-inferred-${key}`}>
        {" "}
        (read off the dump{spread})
      </span>
    );
  };
  /** A setting chosen from slime's own list of values, under slime's name. */
  const menu = <K extends "advantageEstimator" | "klLossType">(
    key: K,
    name: string,
    options: readonly SlimeSettings[K][],
    testId: string,
  ) => (
    <label>
      {name}
      {guessed(key)}
      <OptionSelect options={options} value={settings[key]} testId={testId} onChoose={(value) => set(key, value)} />
    </label>
  );
  return (
    <fieldset className="panel run-settings" data-testid="run-settings">
      <legend>The run's settings (slime's arguments)</legend>
      {dumpOpen ? null : (
        <p className="muted small" data-testid="run-settings-defaults">
          slime's defaults until a dump is open: its own numbers then set each one, and a value typed here overrides
          them.
        </p>
      )}
      {menu("advantageEstimator", "advantage_estimator", SLIME_ESTIMATORS, "run-estimator")}
      {NUMBER_FIELDS.map(([key, name, help]) => (
        <label key={key} title={help}>
          {name}
          {guessed(key)}
          <input
            type="number"
            step="any"
            min={key === "contextParallelSize" ? 1 : 0}
            value={settings[key]}
            data-testid={`run-${name}`}
            onChange={(event) => {
              const value = event.currentTarget.valueAsNumber;
              if (
                Number.isFinite(value) &&
                value >= 0 &&
                (key !== "contextParallelSize" || (Number.isInteger(value) && value >= 1))
              ) {
                set(key, value);
              }
            }}
          />
        </label>
      ))}
      {menu("klLossType", "kl_loss_type", KL_LOSS_TYPES, "run-kl_loss_type")}
      <label className="check">
        <input
          type="checkbox"
          checked={settings.normalizeAdvantages}
          data-testid="run-normalize_advantages"
          onChange={(event) => set("normalizeAdvantages", event.currentTarget.checked)}
        />
        normalize_advantages{guessed("normalizeAdvantages")}
      </label>
      <label className="check">
        <input
          type="checkbox"
          checked={settings.useRolloutLogprobs}
          onChange={(event) => set("useRolloutLogprobs", event.currentTarget.checked)}
        />
        use_rollout_logprobs{guessed("useRolloutLogprobs")}
      </label>
      <button type="button" onClick={onSearch} disabled={searching} data-testid="run-search">
        {searching ? "Trying every estimator…" : "Find the settings that reproduce the dump"}
      </button>
    </fieldset>
  );
}
