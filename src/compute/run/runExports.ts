import type { SlimeSettings } from "../../core";
import { pytestExport } from "../../io/pytestSnippet";
import { exportDumpCase, type UnderstoodDump } from "../../io/slimeDump";
import { samplesToPlayground } from "./runToPlayground";

/** A file the run view offers for download, and one sentence saying what it holds. */
export interface ExportFile {
  fileName: string;
  text: string;
  note: string;
}

/** "train_rpp_g099_kl005" from "train_rpp_g099_kl005.pt" (or from "a.pt + b.pt", the train dump's), safe in a file name. */
export function fileStem(name: string): string {
  const first = name.split(" + ")[0] ?? name;
  const stem = first.replace(/\.[^.]*$/, "").replace(/[^A-Za-z0-9_-]+/g, "_");
  return stem.replace(/^_+|_+$/g, "") || "dump";
}

/** "sample_2", "samples_1_4_6": the file name's part naming the samples (the first 8, then how many more). */
function samplesPart(indices: readonly number[]): string {
  if (indices.length === 1) return `sample_${indices[0]}`;
  const shown = indices.slice(0, 8).join("_");
  return `samples_${shown}${indices.length > 8 ? `_and_${indices.length - 8}_more` : ""}`;
}

/**
 * The chosen samples as one golden case (what `scanlab dump --export-cases` writes, through the
 * same exportDumpCase), for `scanlab check` or the conformance view. With normalize_advantages the
 * case holds the whole batch: slime whitened over all of it, and the stored advantages of a subset
 * match only that batch's whitening.
 */
export function casesExport(
  dump: UnderstoodDump,
  settings: SlimeSettings,
  indices: readonly number[],
  fileName: string,
): ExportFile | string {
  const whole = settings.normalizeAdvantages || indices.length === dump.samples.length;
  const chosen = whole ? dump.samples.map((_, i) => i) : indices;
  const stem = fileStem(fileName);
  const name = whole ? stem : `${stem}_${samplesPart(chosen)}`;
  const exported = exportDumpCase({ ...dump, samples: chosen.map((i) => dump.samples[i]) }, settings, name);
  if (!exported.ok) return exported.error.message;
  const note =
    whole && indices.length < dump.samples.length
      ? `the whole batch of ${dump.samples.length} samples: its advantages were whitened over all of them, so a subset's stored values match no case of its own`
      : `${chosen.length} sample${chosen.length === 1 ? "" : "s"} (${chosen.join(", ")})`;
  return { fileName: `${name}.cases.json`, text: `${JSON.stringify(exported.value)}\n`, note };
}

/**
 * The chosen samples as the playground's pytest file: slime's own chunked function run on the
 * dump's inputs, against Scanlab's float64 reference. It checks slime's scan, not the dump's stored
 * values (the case file does that), and the advantages before any whitening.
 */
export function pytestFileExport(
  dump: UnderstoodDump,
  settings: SlimeSettings,
  indices: readonly number[],
  fileName: string,
): ExportFile | string {
  const samples = indices.map((i) => {
    const s = dump.samples[i];
    return {
      length: s.responseLength,
      reward: s.reward,
      lossMask: s.lossMask,
      kl: s.kl ?? null,
      values: s.values ?? null,
    };
  });
  const state = samplesToPlayground(samples, settings);
  if (typeof state === "string") return state;
  const { text } = pytestExport(state);
  const stem = fileStem(fileName);
  const whitened = settings.normalizeAdvantages
    ? [
        "# The dump's advantages were whitened over its whole batch (--normalize-advantages); these tests check",
        "# slime's scan before that whitening.",
      ]
    : [];
  const head = [
    `# Scanlab run view export: ${fileName.replace(/[\r\n]/g, " ")}, sample${indices.length === 1 ? "" : "s"} ${indices.join(", ")} (row k of`,
    "# the batch below is the k-th of them), replayed as slime's",
    `# --advantage-estimator ${settings.advantageEstimator} --gamma ${settings.gamma}${settings.advantageEstimator === "ppo" ? ` --lambd ${settings.lambd}` : ""} --kl-coef ${settings.klCoef}.`,
    "# slime's own function runs on the dump's inputs (its kl, loss masks, rewards and values); the",
    "# dump's stored advantages and returns are not in this file (the case file checks those).",
    ...whitened,
  ];
  return {
    fileName: `test_${stem}_${samplesPart(indices)}.py`,
    text: `${head.join("\n")}\n${text}`,
    note: `${indices.length} sample${indices.length === 1 ? "" : "s"} (${indices.join(", ")})`,
  };
}
