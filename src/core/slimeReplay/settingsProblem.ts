import type { SlimeSettings } from "./settings";

/**
 * Why these settings cannot be replayed at all, or null. slime's torch math runs in float32: a γ, λ or
 * kl_coef that rounds to ±∞ there makes every product infinite or NaN, so no stored value could be
 * held to anything (a kl_coef of 1e300 once made every dump "pass").
 */
export function settingsProblem(s: SlimeSettings): string | null {
  const scalars: [string, number][] = [
    ["gamma", s.gamma],
    ["lambd", s.lambd],
    ["kl_coef", s.klCoef],
  ];
  for (const [name, value] of scalars) {
    if (!Number.isFinite(value)) return `${name} ${value} is not a finite number`;
    if (!Number.isFinite(Math.fround(value))) {
      return `${name} ${value} rounds to infinity in float32, the precision of slime's torch math: nothing can be checked against it`;
    }
  }
  if (!Number.isSafeInteger(s.nSamplesPerPrompt) || s.nSamplesPerPrompt < 1) {
    return `n_samples_per_prompt ${s.nSamplesPerPrompt} is not a whole number of at least 1`;
  }
  return null;
}
