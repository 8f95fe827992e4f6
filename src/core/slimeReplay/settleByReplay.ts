import { cleanDecimal } from "./cleanDecimal";
import { tokensOf } from "./fieldLengths";
import type { Estimate, InferredParameter, InferredSettings, Pending } from "./inferredSettings";
import { rankLengths } from "./replayBounds";
import { type DumpOutputs, type ReplayResult, replaySlime } from "./replayDump";
import type { ReplaySample, SlimeEstimator, SlimeSettings } from "./settings";

/**
 * Each estimate becomes the cleanest decimal within its uncertainty (what the user typed; slime
 * computed with its float32 rounding). The settings are then replayed: the clean ones, else the
 * raw estimates, each also with the alternatives for what the numbers left open; the first that
 * passes is kept, else the clean ones with the verdict noted.
 */
export function roundAndCheck(
  samples: ReplaySample[],
  stored: DumpOutputs[],
  result: InferredSettings,
  klZero: boolean,
  pending: Pending,
  replay: typeof replaySlime = replaySlime,
): void {
  const { settings } = result;
  const values = { ...result.estimates, ...pending.values };
  const raw: Partial<SlimeSettings> = {};
  for (const key of ["gamma", "lambd", "klCoef"] as const) {
    const e = values[key];
    if (!e || !Number.isFinite(e.value)) continue;
    raw[key] = e.value;
    settings[key] = cleanValue(key, e, klZero);
  }
  let first: string | null = null;
  const screen = screeningSubset(samples, stored);
  for (const alternative of [null, ...pending.alternatives]) {
    for (const rounding of [{}, raw]) {
      const trial = { ...settings, ...rounding, ...alternative?.settings };
      // The first trial's verdict is noted, so it is always replayed whole; a later one that fails on
      // the subset fails on the batch.
      if (first !== null && screen && failsOnSubset(screen, trial)) continue;
      const verdict = replayVerdict(() => replay(samples, stored, trial));
      first ??= verdict;
      if (verdict !== "passed") continue;
      Object.assign(settings, trial);
      if (alternative?.estimates) result.estimates = alternative.estimates;
      const how = rounding === raw ? "the unrounded estimates (the clean decimals fail)" : "these settings";
      const also = alternative ? ` (${alternative.note})` : "";
      result.notes.push(`replayed with ${how}${also}: every sample within its float32 bound`);
      return;
    }
  }
  result.notes.push(`replayed with these settings: ${first}`);
}

export function cleanValue(key: InferredParameter, e: Estimate, klZero: boolean): number {
  const clean = cleanDecimal(e.value, e.uncertainty);
  // A nonzero stored KL means kl_coef is not 0, however small its estimate.
  return key === "klCoef" && clean === 0 && !klZero ? e.value : clean;
}

/** Another reading of the numbers: its estimates and the settings (cleaned) they give. */
export class InferredSettingsScratch {
  readonly settings: Partial<SlimeSettings> = {};
  readonly estimates: InferredSettings["estimates"] = {};
  estimate(key: InferredParameter, e: Estimate): void {
    this.estimates[key] = e;
    this.settings[key] = cleanValue(key, e, false);
  }
  alternative(estimator: SlimeEstimator): Pending["alternatives"][number] {
    return {
      settings: { ...this.settings, advantageEstimator: estimator },
      estimates: this.estimates,
      note: `read as ${estimator}`,
    };
  }
}

/** Tokens of the subset a trial is screened on first. */
const SCREEN_TOKENS = 1 << 16;

interface Screen {
  samples: ReplaySample[];
  stored: DumpOutputs[];
  paddedLengths: Map<number, number>;
}

/**
 * Samples spread evenly over a batch of more than twice SCREEN_TOKENS tokens, about that many, with
 * their ranks' padded lengths in the whole batch (null for a smaller batch: it is replayed whole).
 */
function screeningSubset(samples: ReplaySample[], stored: DumpOutputs[]): Screen | null {
  const total = samples.reduce((n, s) => n + tokensOf(s), 0);
  if (total <= 2 * SCREEN_TOKENS) return null;
  const step = Math.max(1, Math.floor(total / SCREEN_TOKENS));
  const picked: number[] = [];
  let tokens = 0;
  for (let i = 0; i < samples.length && tokens < SCREEN_TOKENS; i += step) {
    picked.push(i);
    tokens += tokensOf(samples[i]);
  }
  return {
    samples: picked.map((i) => samples[i]),
    stored: picked.map((i) => stored[i]),
    paddedLengths: rankLengths(samples),
  };
}

/**
 * Without normalisation each sample's verdict is its own (its bounds scanned at its rank's padded
 * length in the whole batch): a sample of the subset outside its bounds is outside them in the
 * batch. With normalisation the whitening is the batch's, so nothing is screened.
 */
function failsOnSubset(screen: Screen, settings: SlimeSettings): boolean {
  if (settings.normalizeAdvantages) return false;
  try {
    const replay = replaySlime(screen.samples, screen.stored, settings, { paddedLengths: screen.paddedLengths });
    return replay.ok && !replay.passed;
  } catch {
    return false;
  }
}

function replayVerdict(run: () => ReplayResult): string {
  try {
    const replay = run();
    if (!replay.ok) return `slime would raise: ${replay.error}`;
    const failed = replay.samples.filter((s) => !s.passed).length;
    return failed === 0 ? "passed" : `${failed} of ${replay.samples.length} samples outside their bounds`;
  } catch (error) {
    return `the replay failed: ${error instanceof Error ? error.message : String(error)}`;
  }
}
