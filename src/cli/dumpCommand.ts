import type { FieldVerdict, SampleReplay, SlimeSettings } from "../core";
import { caseFileText } from "../io/caseFileText";
import { IoError } from "../io/ioError";
import { printable } from "../io/printable";
import {
  bitsSentence,
  checkDump,
  type DumpCheck,
  exportDumpCase,
  openDump as openDumpSource,
  pairDumps,
  replayInWindows,
  searchSettings,
  type UnderstoodDump,
} from "../io/slimeDump";
import { notATrainDump } from "../io/slimeDump/nothingToReplay";
import { type ByteSource, bytesSource } from "../io/tensorFiles/byteSource";
import { alignColumns } from "./columns";
import type { DumpArgs } from "./dumpArgs";

/** What the dump command needs from the outside: reading the files, writing the case file and the report. */
export interface DumpIO {
  stdout(text: string): void;
  readStdin(): Promise<Uint8Array>;
  /** Resolves once what was written has left: a long report is written a piece at a time, not buffered whole. */
  drained?(): Promise<void>;
  openFile(path: string, name: string): ByteSource & { close(): void };
  writeFile(path: string, text: string): Promise<void>;
  /** JSON text with Infinity and NaN written as strings (JSON has neither); `indent` 0: one line. */
  json(value: unknown, indent?: number): string;
  /** A directory's entries (null when the path is no directory): a run directory is read by its names. */
  listDir(path: string): DirEntry[] | null;
}

export interface DirEntry {
  name: string;
  directory: boolean;
}

/** A file refused or nothing to replay: one line on standard error, exit status 2. */
export class DumpFileError extends Error {}

/** The report on one dump file (main sends a directory or several paths to dumpRun's runDumpRun). */
export async function runDump(args: DumpArgs, io: DumpIO): Promise<number> {
  const opened = await openDump(args.file, io, "by size");
  try {
    return await reportDump(args, io, opened.dump);
  } catch (error) {
    // A field read late: the file changed or ended since it was opened.
    if (error instanceof IoError) throw new DumpFileError(printable(error.message));
    throw error;
  } finally {
    opened.close();
  }
}

async function reportDump(args: DumpArgs, io: DumpIO, train: UnderstoodDump): Promise<number> {
  let dump = train;
  if (args.rollout !== null) {
    const rollout = (await openDump(args.rollout, io, false)).dump;
    if (rollout.kind !== "rollout")
      throw new DumpFileError(
        `${printable(args.rollout)}: --rollout takes a rollout dump; this is a ${rollout.kind} file`,
      );
    dump = pairDumps(dump, rollout, args.rollout);
  }
  if (dump.kind !== "train") throw new DumpFileError(nothingToReplay(args.file, dump));
  // The report reads each sample's verdicts, and with --json its reference one sample at a time.
  replayInWindows(dump);
  let check = checkDump(dump, args.settings);
  // --search-settings: every estimator, normalisation and KL formula with the scalars in force; the
  // verdict is then the first combination that reproduces the dump, when one does.
  const trials = args.search ? searchSettings(dump, check.settings) : null;
  const found = trials?.find((t) => t.passed);
  if (found) {
    const { advantageEstimator, normalizeAdvantages, klLossType } = found.settings;
    check = checkDump(dump, { ...args.settings, advantageEstimator, normalizeAdvantages, klLossType }, check.inferred);
  }
  const { settings, replay } = check;
  if (!replay.ok)
    throw new DumpFileError(
      `${printable(args.file)}: cannot replay with ${settingsLine(settings)}: ${printable(replay.error)}`,
    );
  if (args.exportCases !== null) {
    const name =
      args.file
        .split("/")
        .pop()
        ?.replace(/\.[^.]*$/, "") ?? "dump";
    const exported = exportDumpCase(dump, settings, name);
    if (!exported.ok) throw new DumpFileError(printable(exported.error.message));
    await io.writeFile(args.exportCases, caseFileText(exported.value));
  }
  if (args.json) {
    const report = { file: args.file, ...jsonReport(dump, check, []) };
    await printJsonReport(
      io,
      { ...report, ...(trials ? { search: trials.map(trialJson) } : {}) },
      replay.samples.length,
      (i) => sampleJson(dump, replay.samples[i], i),
    );
  } else {
    io.stdout(textReport(args, dump, check, replay.samples, trials));
  }
  return check.passed ? 0 : 1;
}

/**
 * A train dump above this size has its long fields read from the file a window of samples at a
 * time (openDump's `streamed`; the file stays open until the report is written). One below it is
 * read whole: held in memory it costs about twice its size, under the command's 400 MB, and the
 * settings' fits, which pass over every field several times, then read no byte twice (streamed,
 * ppo512's 196 MB cost 5 s more CPU).
 */
export const STREAM_ABOVE_BYTES = 200 * 2 ** 20;

async function openDump(
  path: string,
  io: DumpIO,
  streaming: boolean | "by size",
): Promise<{ dump: UnderstoodDump; close: () => void }> {
  const name = path === "-" ? "standard input" : (path.split("/").pop() ?? path);
  let source: ByteSource & { close?(): void };
  try {
    source = path === "-" ? bytesSource(await io.readStdin(), name) : io.openFile(path, name);
  } catch (error) {
    throw new DumpFileError(`cannot read ${printable(path)}: ${printable((error as Error).message)}`);
  }
  // Closed once: here when read whole, else by the caller once the report is written.
  let open = true;
  const close = () => {
    if (open) source.close?.();
    open = false;
  };
  const streamed = streaming === "by size" ? source.size > STREAM_ABOVE_BYTES : streaming;
  try {
    const opened = openDumpSource(source, { streamed });
    if (!opened.ok) throw new DumpFileError(printable(opened.error.message));
    if (!streamed) close();
    return { dump: opened.value.dump, close };
  } catch (error) {
    close();
    throw error;
  }
}

function nothingToReplay(file: string, dump: UnderstoodDump): string {
  if (dump.kind === "rollout") {
    return `${printable(file)}: a rollout dump (${dump.samples.length} Samples) holds no advantages to replay; give its train dump, with --rollout ${printable(file)}`;
  }
  // The file's name and tensor names are escaped for the terminal; the sentence is the run view's too.
  return printable(notATrainDump(file, dump));
}

export function settingsLine(s: SlimeSettings): string {
  const parts = [`--advantage-estimator ${s.advantageEstimator}`, `--gamma ${s.gamma}`];
  if (s.advantageEstimator === "ppo") parts.push(`--lambd ${s.lambd}`);
  parts.push(`--kl-coef ${s.klCoef}`);
  if (s.klCoef !== 0) parts.push(`--kl-loss-type ${s.klLossType}`);
  if (s.normalizeAdvantages) parts.push("--normalize-advantages");
  if (s.useRolloutLogprobs) parts.push("--use-rollout-logprobs");
  if (s.contextParallelSize !== 1) parts.push(`--context-parallel-size ${s.contextParallelSize}`);
  return parts.join(" ");
}

/** Per field, the token whose gap is the largest share of its bound: that gap and that bound. */
const HEADERS = ["sample", "rollout pos", "length", "advantages gap", "bound", "returns gap", "bound", "kl", "result"];

function textReport(
  args: DumpArgs,
  dump: UnderstoodDump,
  check: DumpCheck,
  samples: SampleReplay[],
  trials: ReturnType<typeof searchSettings> | null,
): string {
  const rows: string[][] = [];
  samples.forEach((s, i) => {
    const d = dump.samples[i];
    const kl = s.kl ? (s.kl.passed ? "ok" : "FAIL") : "-";
    rows.push([
      String(i),
      String(d.rolloutPosition ?? "-"),
      String(s.length),
      num(s.advantages.worstGap),
      num(s.advantages.worstBound),
      num(s.returns.worstGap),
      num(s.returns.worstBound),
      kl,
      s.passed ? "pass" : "FAIL",
    ]);
  });
  const table = alignColumns(HEADERS, rows);
  const failed = samples.filter((s) => !s.passed).length;
  const out = [`${printable(args.file)}: slime train dump, ${samples.length} samples`];
  if (trials) {
    const good = trials.filter((t) => t.passed);
    out.push(
      good.length > 0
        ? "settings that reproduce the dump (--search-settings):"
        : "--search-settings: no estimator, normalisation and KL formula reproduces the dump with these gamma, lambd and kl-coef",
    );
    for (const t of good) out.push(`  ${settingsLine(t.settings)}`);
  }
  out.push(...settingsLines(check));
  for (const note of dump.notes) out.push(`  note: ${printable(note)}`);
  out.push("", "stages, in slime's order:");
  for (const stage of check.stages) {
    const status = stage.status === "pass" ? "pass" : stage.status === "fail" ? "FAIL" : "not checked";
    out.push(`  ${stage.stage.padEnd(10)} ${status.padEnd(11)} ${printable(stage.sentence)}`);
  }
  out.push("", table.header, table.rule);
  samples.forEach((s, i) => {
    out.push(table.rows[i]);
    if (!s.passed) out.push(`    ${failureLine(s)}`);
  });
  out.push("");
  if (check.bits) out.push(`bits: ${bitsSentence(check.bits)}`);
  if (check.diagnosis?.best) out.push(`diagnosis: ${printable(check.diagnosis.sentence)}`);
  else if (check.firstDeparture) out.push(`first departure: ${printable(check.firstDeparture)}`);
  if (check.advice) out.push(`settings: ${printable(check.advice)}`);
  const rewardsFailed = check.rewards.checked && !check.rewards.passed;
  out.push(
    check.passed
      ? `all ${samples.length} samples within their float32 bounds`
      : failed > 0
        ? `${failed} of ${samples.length} samples outside their float32 bounds`
        : rewardsFailed
          ? `the stored rewards depart from the raw rewards' post-processing; advantages and returns follow from them`
          : "the dump departs from slime's semantics",
  );
  return out.join("\n");
}

/** The settings in force, which were read off the dump (with their uncertainty) and which were given. */
function settingsLines(check: DumpCheck): string[] {
  const out = [`settings: ${settingsLine(check.settings)}`];
  const read: string[] = [];
  const given: string[] = [];
  for (const [key, source] of Object.entries(check.settingsSource) as [keyof SlimeSettings, string][]) {
    const name = SLIME_NAMES[key];
    if (!name) continue;
    const value = check.settings[key];
    if (source === "given") given.push(`${name} ${String(value)}`);
    else {
      const estimate = (check.inferred.estimates as Record<string, { value: number; uncertainty: number }>)[key];
      read.push(
        estimate
          ? `${name} ${String(value)} (${estimate.value.toPrecision(7)} ± ${estimate.uncertainty.toPrecision(2)})`
          : `${name} ${String(value)}`,
      );
    }
  }
  if (read.length > 0) out.push(`  read off the dump: ${read.join(", ")}`);
  if (given.length > 0) out.push(`  given: ${given.join(", ")}`);
  const unknown = Object.entries(check.inferred.notIdentifiable)
    .filter(([key]) => !(key in check.settingsSource) && SLIME_NAMES[key as keyof SlimeSettings])
    .map(([, why]) => printable(String(why)));
  if (unknown.length > 0) out.push(`  not identifiable from this dump (slime's default used): ${unknown.join("; ")}`);
  return out;
}

/** slime's argument names of the settings. */
const SLIME_NAMES: Partial<Record<keyof SlimeSettings, string>> = {
  advantageEstimator: "advantage_estimator",
  gamma: "gamma",
  lambd: "lambd",
  klCoef: "kl_coef",
  klLossType: "kl_loss_type",
  normalizeAdvantages: "normalize_advantages",
  useRolloutLogprobs: "use_rollout_logprobs",
  contextParallelSize: "context_parallel_size",
  nSamplesPerPrompt: "n_samples_per_prompt",
};

function failureLine(s: SampleReplay): string {
  const fields: [string, FieldVerdict | null][] = [
    ["advantages", s.advantages],
    ["returns", s.returns],
    ["kl", s.kl],
  ];
  return fields
    .filter(([, v]) => v && !v.passed)
    .map(([name, v]) => {
      const f = v as FieldVerdict;
      const worst =
        f.worstToken >= 0
          ? `; worst at token ${f.worstToken}: gap ${num(f.worstGap)}, tolerance ${num(f.worstBound)}`
          : "";
      const cause = f.cause ? ` (${printable(f.cause)})` : "";
      return `${name}: ${f.failures} of ${s.length} tokens outside${worst}${cause}`;
    })
    .join("; ");
}

export function num(x: number): string {
  if (x === 0) return "0";
  return Number.isFinite(x) ? x.toExponential(2) : String(x);
}

function fieldJson(v: FieldVerdict | null) {
  if (!v) return null;
  return {
    passed: v.passed,
    max_gap: v.maxGap,
    worst_token: v.worstToken,
    worst_gap: v.worstGap,
    worst_bound: v.worstBound,
    failures: v.failures,
    scale: v.scale,
    unbounded_tokens: v.unbounded,
    wide_bound_tokens: v.wide,
    cause: v.cause,
  };
}

export function jsonReport(dump: UnderstoodDump, check: DumpCheck, samples: SampleReplay[]) {
  const { settings } = check;
  const uncertainty = (key: "gamma" | "lambd" | "klCoef") => check.inferred.estimates[key]?.uncertainty ?? null;
  return {
    passed: check.passed,
    settings: {
      advantage_estimator: settings.advantageEstimator,
      gamma: settings.gamma,
      lambd: settings.lambd,
      kl_coef: settings.klCoef,
      kl_loss_type: settings.klLossType,
      normalize_advantages: settings.normalizeAdvantages,
      use_rollout_logprobs: settings.useRolloutLogprobs,
      context_parallel_size: settings.contextParallelSize,
      n_samples_per_prompt: settings.nSamplesPerPrompt,
    },
    settings_source: Object.fromEntries(
      Object.entries(check.settingsSource).flatMap(([k, v]) => {
        const name = SLIME_NAMES[k as keyof SlimeSettings];
        return name ? [[name, v]] : [];
      }),
    ),
    uncertainty: { gamma: uncertainty("gamma"), lambd: uncertainty("lambd"), kl_coef: uncertainty("klCoef") },
    not_identifiable: check.inferred.notIdentifiable,
    stages: check.stages,
    diagnosis: check.diagnosis
      ? {
          sentence: check.diagnosis.sentence,
          best: check.diagnosis.best?.variant ?? null,
          matches: check.diagnosis.matches.map((m) => ({
            ...m.variant,
            samples_matched: m.samplesMatched,
            samples_departing: m.samplesDeparting,
            fields: m.fields,
          })),
        }
      : null,
    advice: check.advice,
    bits: check.bits,
    notes: dump.notes,
    samples: samples.map((s, i) => sampleJson(dump, s, i)),
  };
}

/** One sample of the JSON report, with every reference value of its tokens. */
function sampleJson(dump: UnderstoodDump, s: SampleReplay, i: number) {
  const d = dump.samples[i];
  // Read once: a windowed replay recomputes it on each read.
  const reference = s.reference;
  return {
    passed: s.passed,
    rollout_position: d.rolloutPosition,
    sample_index: d.sampleIndex,
    response_length: s.length,
    max_gap: { advantages: s.advantages.maxGap, returns: s.returns.maxGap, kl: s.kl?.maxGap ?? null },
    advantages: fieldJson(s.advantages),
    returns: fieldJson(s.returns),
    kl: fieldJson(s.kl),
    ...(d.rollout ? { rollout: d.rollout } : {}),
    reference: { advantages: Array.from(reference.advantages), returns: Array.from(reference.returns) },
  };
}

/**
 * The report as io.json would print it whole, written a sample at a time: at 4.4 M tokens the whole
 * report was 8.8 M JS numbers and a 275 MB string at once (1.9 GB of memory). `report` holds
 * `samples: []`, a top-level key (two spaces deep, unique); each sample's text is io.json's own,
 * indented as JSON.stringify indents a nested value, and every piece ends where the whole text has
 * a line break (io.stdout adds it), so the bytes are the same. Each sample waits for the last to be
 * written (io.drained).
 */
async function printJsonReport(
  io: DumpIO,
  report: object,
  count: number,
  sample: (i: number) => unknown,
): Promise<void> {
  const text = io.json(report);
  const marker = '\n  "samples": []';
  const at = text.indexOf(marker);
  if (count === 0 || at < 0) {
    io.stdout(text);
    return;
  }
  io.stdout(text.slice(0, at + marker.length - 1));
  for (let i = 0; i < count; i++) {
    const lines = io.json(sample(i)).split("\n");
    io.stdout(`    ${lines.join("\n    ")}${i + 1 < count ? "," : ""}`);
    // A pipe to a slower reader keeps whatever it has not passed on: wait for it, or it holds the whole report.
    await io.drained?.();
  }
  io.stdout(`  ]${text.slice(at + marker.length)}`);
}

function trialJson(t: ReturnType<typeof searchSettings>[number]) {
  return { settings: settingsLine(t.settings), passed: t.passed, samples_passed: t.samplesPassed };
}
