import {
  type BitComparison,
  compareWithSlimeCpu,
  type Diagnosis,
  type InferredSettings,
  isBroadcastEstimator,
  type ReplayResult,
  type RewardStageVerdict,
  rowsOf,
  type SlimeSettings,
} from "../../core";
import { diagnoseDump, diagnoseOverCpSizes } from "./diagnoseDump";
import type { UnderstoodDump } from "./dumpTypes";
import { dumpReplayInputs, inferDumpSettings, judgeDumpRewards, replayDump } from "./replayDump";

/** The stages of slime's pipeline a train dump records, in the order slime runs them. */
export type DumpStage = "rewards" | "kl" | "returns" | "advantages";

export interface StageVerdict {
  stage: DumpStage;
  status: "pass" | "fail" | "not checked";
  /** Samples whose stored values at this stage depart from the replay. */
  departing: number[];
  sentence: string;
}

/** Everything a user asks of one train dump: which settings, which verdict per stage, and what is wrong. */
export interface DumpCheck {
  /** The settings the verdict used. */
  settings: SlimeSettings;
  /** Whether each setting was typed by the user or read off the dump's numbers. */
  settingsSource: Partial<Record<keyof SlimeSettings, "given" | "inferred">>;
  inferred: InferredSettings;
  replay: ReplayResult;
  rewards: RewardStageVerdict;
  stages: StageVerdict[];
  /** The first stage where the dump departs, in words (null when nothing departs). */
  firstDeparture: string | null;
  /** That stage's name. */
  firstDepartingStage: DumpStage | null;
  /** When something departs: the known variant that reproduces it, if any. */
  diagnosis: Diagnosis | null;
  /** When the settings given fail where the ones read off the dump pass: the difference, in words. */
  advice: string | null;
  /** The stored returns against slime's float32 CPU arithmetic, bit for bit (null where there is no scan to redo, or the returns depart). */
  bits: BitComparison | null;
  passed: boolean;
}

const SCALARS: [keyof SlimeSettings, "gamma" | "lambd" | "klCoef", string][] = [
  ["gamma", "gamma", "γ"],
  ["lambd", "lambd", "λ"],
  ["klCoef", "klCoef", "kl_coef"],
];

/**
 * A train dump checked end to end, the one entry point of the CLI and the run view: the settings
 * read off its numbers (inferSettings) under what the user gave, the replay of every stage (the
 * reward post-processing from the raw rewards, then the KL, returns and advantages), the first
 * stage that departs, and, when something departs, the known bug that reproduces it. Pure.
 * `bits: false` leaves out the bit-for-bit comparison (a run's row, which does not show it).
 */
export function checkDump(
  dump: UnderstoodDump,
  given: Partial<SlimeSettings>,
  inferred: InferredSettings = inferDumpSettings(dump),
  options: { bits?: boolean } = {},
): DumpCheck {
  const read = readRewardProcessing(dump, { ...inferred.settings, ...given }, given);
  const settings = read.settings;
  const settingsSource: DumpCheck["settingsSource"] = {};
  for (const key of Object.keys(settings) as (keyof SlimeSettings)[]) {
    if (key in given) settingsSource[key] = "given";
    else if (!(key in inferred.notIdentifiable) || read.decided.includes(key)) settingsSource[key] = "inferred";
  }
  const replay = replayDump(dump, settings);
  const rewards = judgeDumpRewards(dump, settings);
  const stages = stageVerdicts(replay, rewards, () => klNotRecomputed(dump, settings));
  const departing = stages.find((s) => s.status === "fail");
  const passed = replay.ok && replay.passed && !(rewards.checked && !rewards.passed);
  let diagnosis: Diagnosis | null = null;
  if (replay.ok && !passed) {
    const sizes = "contextParallelSize" in given ? [] : (inferred.contextParallelSizes ?? []);
    diagnosis = diagnoseOverCpSizes(dump, settings, sizes);
    if (!diagnosis?.best) diagnosis = diagnoseAsTwin(dump, settings, given, inferred) ?? diagnosis;
  }
  return {
    settings,
    settingsSource,
    inferred,
    replay,
    rewards,
    stages,
    firstDeparture: departing ? departing.sentence : null,
    firstDepartingStage: departing ? departing.stage : null,
    diagnosis,
    advice: passed ? null : adviceFor(dump, given, settings, inferred),
    // Bits say what the bound cannot see; where the returns already depart, they add nothing.
    bits: options.bits !== false ? checkBits(dump, settings, stages) : null,
    passed,
  };
}

/**
 * The bit-for-bit comparison of a check made with `bits: false`, computed afterwards (the run view
 * shows the verdict first: at 4.4 M tokens the float32 CPU scan takes seconds). Null as in checkDump.
 */
export function checkBits(
  dump: UnderstoodDump,
  settings: SlimeSettings,
  stages: readonly StageVerdict[],
): BitComparison | null {
  return stages.find((x) => x.stage === "returns")?.status === "pass" ? bitsOf(dump, settings) : null;
}

/**
 * The reward post-processing read off the dump: grpo, the baseline and REINFORCE++ can store the same
 * advantages (kl_coef 0, one token, γ 1), and only the stored rewards tell them apart: each prompt's
 * group std-normalised (grpo, gspo, cispo), mean-centred (the baseline) or left raw (REINFORCE++,
 * `--disable-rewards-normalization`). When the settings in force fail the reward stage, the
 * combinations the user did not give are tried, the estimators among them only where the replay of
 * the advantages and returns still passes; the first that passes every stage is taken.
 */
function readRewardProcessing(
  dump: UnderstoodDump,
  settings: SlimeSettings,
  given: Partial<SlimeSettings>,
): { settings: SlimeSettings; decided: (keyof SlimeSettings)[] } {
  const decided: (keyof SlimeSettings)[] = [];
  const first = judgeDumpRewards(dump, settings);
  if (!first.checked || first.passed) return { settings, decided };
  const estimators =
    "advantageEstimator" in given || settings.advantageEstimator === "ppo"
      ? [settings.advantageEstimator]
      : uniq([settings.advantageEstimator, "grpo", "reinforce_plus_plus_baseline", "reinforce_plus_plus"] as const);
  const switches = (key: "rewardsNormalization" | "grpoStdNormalization") =>
    key in given ? [settings[key]] : uniq([settings[key], !settings[key]]);
  for (const advantageEstimator of estimators) {
    for (const rewardsNormalization of switches("rewardsNormalization")) {
      for (const grpoStdNormalization of switches("grpoStdNormalization")) {
        const trial = { ...settings, advantageEstimator, rewardsNormalization, grpoStdNormalization };
        const rewards = judgeDumpRewards(dump, trial);
        if (!rewards.checked || !rewards.passed) continue;
        if (advantageEstimator !== settings.advantageEstimator) {
          const replay = replayDump(dump, trial);
          if (!(replay.ok && replay.passed)) continue;
        }
        decided.push("rewardsNormalization", "grpoStdNormalization");
        if (advantageEstimator !== settings.advantageEstimator) decided.push("advantageEstimator");
        return { settings: trial, decided };
      }
    }
  }
  return { settings, decided };
}

/**
 * Readings the dump's numbers cannot tell apart: grpo, the baseline and REINFORCE++ store the same
 * advantages where nothing but their rewards differs (kl_coef 0, γ 1), and a kl_coef whose range
 * includes 0 may be 0. When the dump departs and no known bug is named under the settings read off
 * it, the others are tried (an estimator only where it reproduces the advantages and returns too),
 * and a bug named under one of them is taken, saying so.
 */
function diagnoseAsTwin(
  dump: UnderstoodDump,
  settings: SlimeSettings,
  given: Partial<SlimeSettings>,
  inferred: InferredSettings,
): Diagnosis | null {
  const trials: { change: Partial<SlimeSettings>; words: string }[] = [];
  if (!("advantageEstimator" in given) && settings.advantageEstimator !== "ppo") {
    for (const advantageEstimator of ["grpo", "reinforce_plus_plus_baseline", "reinforce_plus_plus"] as const) {
      if (advantageEstimator === settings.advantageEstimator) continue;
      const words = `read as ${advantageEstimator} (its advantages and returns are the same as ${settings.advantageEstimator}'s on this dump)`;
      trials.push({ change: { advantageEstimator }, words });
    }
  }
  const beta = inferred.estimates.klCoef;
  const betaMayBeZero = beta ? Math.abs(beta.value) <= beta.uncertainty : "klCoef" in inferred.notIdentifiable;
  if (!("klCoef" in given) && settings.klCoef !== 0 && betaMayBeZero) {
    trials.push({ change: { klCoef: 0 }, words: "with kl_coef 0, which the dump's numbers do not rule out" });
  }
  for (const { change, words } of trials) {
    const trial = { ...settings, ...change };
    if (change.advantageEstimator) {
      const replay = replayDump(dump, trial);
      if (!(replay.ok && replay.passed)) continue;
    }
    const diagnosis = diagnoseDump(dump, trial);
    if (diagnosis?.best) return { ...diagnosis, sentence: `${diagnosis.sentence}, ${words}` };
  }
  return null;
}

function uniq<T>(values: readonly T[]): T[] {
  return [...new Set(values)];
}

function bitsOf(dump: UnderstoodDump, settings: SlimeSettings): BitComparison | null {
  const { samples, stored } = dumpReplayInputs(dump);
  return compareWithSlimeCpu(samples, rowsOf(stored, "returns"), settings);
}

/** The bit-level comparison in words: what the float32 bound cannot see. */
export function bitsSentence(bits: BitComparison): string {
  if (bits.identical === bits.compared)
    return `the stored returns are bit for bit what slime's float32 code computes on a CPU (${bits.compared} tokens)`;
  const at = bits.first ? ` (first at sample ${bits.first.sample}, token ${bits.first.token})` : "";
  return `${bits.compared - bits.identical} of ${bits.compared} stored returns differ from slime's float32 CPU arithmetic, by up to ${bits.maxUlps.toPrecision(3)} ulp${at} (a dump written on a GPU sums in another order, and a setting read off the dump that is not the run's exact value rounds differently; a CPU dump with the run's settings is identical)`;
}

/**
 * Why the stored KL was not recomputed: kl_coef 0 (the settings' or the user's), under which slime
 * stores zeros and the replay takes none, else no log-probs to recompute it from. A stored KL that is
 * not zero under kl_coef 0 is said: grpo, gspo and cispo store the KL but leave it out of their
 * advantages, so kl_coef cannot be read off them, and the KL is checked only when it is given.
 */
function klNotRecomputed(dump: UnderstoodDump, settings: SlimeSettings): string {
  if (settings.klCoef !== 0) return "not recomputed (no log-probs in the dump)";
  if (!dump.samples.some((s) => s.kl)) return "no kl in the dump";
  const stored = dump.samples.some((s) => {
    const kl = s.kl;
    if (!kl) return false;
    for (let t = 0; t < kl.length; t++) if (kl[t] !== 0) return true;
    return false;
  });
  if (!stored) return "not recomputed (kl_coef 0: slime stores zeros)";
  const why = isBroadcastEstimator(settings.advantageEstimator)
    ? `; ${settings.advantageEstimator} leaves the KL out of its advantages, so they cannot say kl_coef`
    : "";
  return `not recomputed: kl_coef is taken as 0, but the stored KL is not zero (slime stores zeros with kl_coef 0${why}): give kl_coef and kl_loss_type to check it`;
}

function stageVerdicts(replay: ReplayResult, rewards: RewardStageVerdict, klWhy: () => string): StageVerdict[] {
  const out: StageVerdict[] = [
    rewards.checked
      ? {
          stage: "rewards",
          status: rewards.passed ? "pass" : "fail",
          departing: [...rewards.departing, ...rewards.unbounded],
          sentence: rewards.message,
        }
      : { stage: "rewards", status: "not checked", departing: [], sentence: rewards.why },
  ];
  for (const stage of ["kl", "returns", "advantages"] as const) {
    if (!replay.ok) {
      out.push({ stage, status: "not checked", departing: [], sentence: replay.error });
      continue;
    }
    const verdicts = replay.samples.map((s) => s[stage]);
    if (verdicts.every((v) => v === null)) {
      out.push({
        stage,
        status: "not checked",
        departing: [],
        sentence: stage === "kl" ? klWhy() : "not recomputed (no log-probs in the dump)",
      });
      continue;
    }
    const departing = verdicts.flatMap((v, i) => (v && !v.passed ? [i] : []));
    if (departing.length === 0) {
      out.push({ stage, status: "pass", departing, sentence: `the stored ${stage} are within their float32 bounds` });
      continue;
    }
    let worst = departing[0];
    for (const i of departing) {
      const v = verdicts[i];
      const w = verdicts[worst];
      if (v && w && v.maxGap / (v.scale || 1) > w.maxGap / (w.scale || 1)) worst = i;
    }
    const w = verdicts[worst];
    const cause = w?.cause ? `: ${w.cause}` : "";
    const at = w && w.worstToken >= 0 ? `, token ${w.worstToken} off by ${w.worstGap.toPrecision(3)}` : "";
    out.push({
      stage,
      status: "fail",
      departing,
      sentence: `the stored ${stage} depart from slime's semantics in ${samplesText(departing, replay.samples.length)} (worst: sample ${worst}${at})${cause}`,
    });
  }
  return out;
}

/**
 * When the settings the user typed fail, replay the ones read off the dump: if they pass, name each
 * setting that differs ("γ 1 fails every sample; this dump was written with γ = 0.99000 ± 2e-6").
 */
function adviceFor(
  dump: UnderstoodDump,
  given: Partial<SlimeSettings>,
  used: SlimeSettings,
  inferred: InferredSettings,
): string | null {
  const differs = (Object.keys(given) as (keyof SlimeSettings)[]).filter((k) => given[k] !== inferred.settings[k]);
  if (differs.length === 0) return null;
  const theirs = replayDump(dump, inferred.settings);
  if (!(theirs.ok && theirs.passed)) return null;
  const mine = replayDump(dump, used);
  const failing = mine.ok ? mine.samples.filter((s) => !s.passed).length : dump.samples.length;
  const what = failing === dump.samples.length ? "every sample" : `${failing} of ${dump.samples.length} samples`;
  const parts = differs.map((key) => {
    const scalar = SCALARS.find(([k]) => k === key);
    const value = inferred.settings[key];
    if (scalar) {
      const e = inferred.estimates[scalar[1]];
      const spread = e && e.uncertainty > 0 ? ` ± ${e.uncertainty.toPrecision(1)}` : "";
      return `${scalar[2]} = ${e ? e.value.toPrecision(6) : String(value)}${spread}`;
    }
    return `${key} = ${String(value)}`;
  });
  const yours = differs.map((k) => `${k} ${String(given[k])}`).join(", ");
  return `${yours} fails ${what}; this dump was written with ${parts.join(", ")}, under which every sample is within bound`;
}

function samplesText(indices: number[], total: number): string {
  if (indices.length === total) return `every sample (${total})`;
  const shown = indices.slice(0, 8).join(", ");
  return `${indices.length} of ${total} samples (${shown}${indices.length > 8 ? ", …" : ""})`;
}
