import { KL_LOSS_TYPES, MAX_CP_SIZE, SLIME_ESTIMATORS, type SlimeSettings } from "../core";
import { parseOptions, UsageError } from "./parseOptions";

export const DUMP_COMMAND = "dump";

export const DUMP_USAGE = `Usage: scanlab dump FILE [--rollout FILE] [slime's arguments] [--json] [--export-cases OUT.json]
       scanlab dump DIR | FILE... [slime's arguments] [--json [--tokens]]

Opens one of slime's debug dumps (train_data/{id}.pt from --save-debug-train-data), a
rollout dump, or a .pt / .npz / .safetensors file saved by hand (docs/dumps.md), and
checks it stage by stage: the rewards' group normalisation replayed from the raw rewards,
then slime's compute_advantages_and_returns (KL, returns, advantages) in float64, each
stored value held to its float32 bound. A stage that departs is named, with the known
bug that reproduces it. The dump does not store the run's arguments: they are read off
its own numbers (gamma, lambd, kl_coef with their uncertainty) and printed first; an
argument given below overrides what is read. FILE may be - to read standard input.

A run directory (slime's --dump-details DIR: train_data/{id}.pt and rollout_data/{id}.pt
for every rollout step), or several files, is checked step by step: each train dump
paired with the rollout dump of the same id, one line per step (samples, tokens,
verdict, worst gap/bound, reward mean±std, KL mean, response length mean/max), every
file not used named with why, and a closing line "N passed, M failed".

Options (slime's names; by default read off the dump):
  --advantage-estimator E   ${SLIME_ESTIMATORS.slice(0, 4).join(", ")},
                            ${SLIME_ESTIMATORS.slice(4).join(", ")} (default grpo)
  --gamma G                 discount (default 1)
  --lambd L                 GAE lambda (default 1)
  --kl-coef B               KL penalty coefficient (default 0)
  --kl-loss-type K          ${KL_LOSS_TYPES.join(", ")} (default k1)
  --normalize-advantages    advantages were whitened over the batch
  --use-rollout-logprobs    KL from the rollout engine's log-probs
  --context-parallel-size N the run's CP size (default 1): ppo's reward then lands on the
                            last element of CP rank 0's slice (scanlab cp-layout shows where)
  --n-samples-per-prompt N  the size of a prompt's group (default: read off the prompts)
  --disable-rewards-normalization, --disable-grpo-std-normalization
                            slime's switches of the raw rewards' group normalisation
  --rollout FILE            the rollout dump of the same step: pairs its Samples by
                            rollout_position (status and raw reward in the report)
  --search-settings         replay every estimator, normalisation and KL formula with
                            the gamma, lambd and kl-coef in force; report which reproduce
                            it (exit 0 when one does)
  --json                    one JSON object: {"passed", "settings", "samples": [{"passed",
                            "max_gap", "reference": {"advantages", "returns"}, ...}]};
                            for a run, JSON lines: one {"type": "step", ...} per step, one
                            {"type": "not_used", "path", "why"} per file left, then the totals
  --tokens                  for a run with --json: each step's samples with every token's
                            reference values (large)
  --export-cases OUT.json   also write the dump as one golden case (cases/SCHEMA.md, kind
                            slime_dump: settings, inputs and the stored values under test);
                            scanlab check OUT.json fails it exactly when this command fails
  -h, --help                show this help
Each option may be given once.

Exit status: 0 when every stage of every sample lies within its bounds, 1 when any
does not, 2 for a usage error, settings that cannot be replayed (one that rounds to
infinity in float32), or a file that is refused, unreadable, or holds nothing to compare.
For a run: 1 when any step fails, 2 when no step could be read.`;

export interface DumpArgs {
  command: "dump";
  /** The one path given, or the first of several. */
  file: string;
  /** Every path given: one file keeps the single-dump report; a directory or several files are a run. */
  paths: string[];
  rollout: string | null;
  settings: Partial<SlimeSettings>;
  search: boolean;
  json: boolean;
  exportCases: string | null;
  /** A run's --json lines with every sample's per-token reference values. */
  tokens: boolean;
}

/** Whether the command line asks for dump: its first word that is not an option. */
export function isDump(argv: string[]): boolean {
  return argv.find((a) => !a.startsWith("-")) === DUMP_COMMAND;
}

export function parseDumpArgs(argv: string[]): DumpArgs | { command: "help"; usage: string } {
  const { values, positionals } = parseOptions(argv, {
    "advantage-estimator": { type: "string" },
    gamma: { type: "string" },
    lambd: { type: "string" },
    "kl-coef": { type: "string" },
    "kl-loss-type": { type: "string" },
    "normalize-advantages": { type: "boolean" },
    "use-rollout-logprobs": { type: "boolean" },
    "context-parallel-size": { type: "string" },
    "n-samples-per-prompt": { type: "string" },
    "disable-rewards-normalization": { type: "boolean" },
    "disable-grpo-std-normalization": { type: "boolean" },
    rollout: { type: "string" },
    "search-settings": { type: "boolean" },
    json: { type: "boolean" },
    tokens: { type: "boolean" },
    "export-cases": { type: "string" },
    help: { type: "boolean", short: "h" },
  });
  if (values.help) return { command: "help", usage: DUMP_USAGE };
  const [, ...paths] = positionals;
  const file = paths[0];
  if (file === undefined)
    throw new UsageError("dump needs a file: a train dump (.pt), a rollout dump, .npz or .safetensors");
  if (paths.length > 1) {
    // A run pairs its files by name and replays each step with the settings its own numbers say.
    const single = (["rollout", "export-cases", "search-settings"] as const).find((flag) => values[flag] !== undefined);
    if (single) throw new UsageError(`--${single} takes one dump; several files are a run, paired by their names`);
    if (paths.includes("-")) throw new UsageError("standard input (-) is one dump; it cannot be part of a run");
  }
  if (values.tokens && !values.json) throw new UsageError("--tokens goes with --json");
  const settings: Partial<SlimeSettings> = {};
  const estimator = values["advantage-estimator"];
  if (estimator !== undefined)
    settings.advantageEstimator = oneOf(estimator, SLIME_ESTIMATORS, "--advantage-estimator");
  const klType = values["kl-loss-type"];
  if (klType !== undefined) settings.klLossType = oneOf(klType, KL_LOSS_TYPES, "--kl-loss-type");
  if (values.gamma !== undefined) settings.gamma = finite("--gamma", values.gamma);
  if (values.lambd !== undefined) settings.lambd = finite("--lambd", values.lambd);
  if (values["kl-coef"] !== undefined) settings.klCoef = finite("--kl-coef", values["kl-coef"]);
  if (values["normalize-advantages"]) settings.normalizeAdvantages = true;
  if (values["use-rollout-logprobs"]) settings.useRolloutLogprobs = true;
  const cp = values["context-parallel-size"];
  if (cp !== undefined) {
    const size = /^\d{1,4}$/.test(cp) ? Number(cp) : Number.NaN;
    if (!(size >= 1 && size <= MAX_CP_SIZE)) {
      throw new UsageError(
        `--context-parallel-size must be a whole number from 1 to ${MAX_CP_SIZE}; got ${JSON.stringify(cp)}`,
      );
    }
    settings.contextParallelSize = size;
  }
  const n = values["n-samples-per-prompt"];
  if (n !== undefined) {
    const size = /^\d{1,6}$/.test(n) ? Number(n) : Number.NaN;
    if (!(size >= 1))
      throw new UsageError(`--n-samples-per-prompt must be a whole number of at least 1; got ${JSON.stringify(n)}`);
    settings.nSamplesPerPrompt = size;
  }
  if (values["disable-rewards-normalization"]) settings.rewardsNormalization = false;
  if (values["disable-grpo-std-normalization"]) settings.grpoStdNormalization = false;
  return {
    command: "dump",
    file,
    paths,
    rollout: values.rollout ?? null,
    settings,
    search: values["search-settings"] ?? false,
    json: values.json ?? false,
    exportCases: values["export-cases"] ?? null,
    tokens: values.tokens ?? false,
  };
}

/** A decimal number as Python's float() reads it from a command line: no hex, no empty string, finite. */
function finite(flag: string, text: string): number {
  const value = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text.trim()) ? Number(text) : Number.NaN;
  if (!Number.isFinite(value))
    throw new UsageError(`${flag} must be a finite decimal number; got ${JSON.stringify(text)}`);
  return value;
}

function oneOf<T extends string>(value: string, allowed: readonly T[], flag: string): T {
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new UsageError(`${flag} must be one of ${allowed.join(", ")}; got ${JSON.stringify(value)}`);
}
