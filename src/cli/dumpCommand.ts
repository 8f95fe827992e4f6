import type { FieldVerdict, SampleReplay, SlimeSettings } from "../core";
import { caseFileText } from "../io/caseFileText";
import { printable } from "../io/printable";
import {
  dumpSettings,
  exportDumpCase,
  pairDumps,
  readTensorFile,
  replayDump,
  searchSettings,
  type UnderstoodDump,
  understandDump,
} from "../io/slimeDump";
import { alignColumns } from "./columns";
import type { DumpArgs } from "./dumpArgs";

/** What the dump command needs from the outside: reading the files, writing the case file and the report. */
export interface DumpIO {
  stdout(text: string): void;
  readFile(path: string): Promise<Uint8Array>;
  readStdin(): Promise<Uint8Array>;
  writeFile(path: string, text: string): Promise<void>;
  /** JSON text with Infinity and NaN written as strings (JSON has neither). */
  json(value: unknown): string;
}

/** A file refused or nothing to replay: one line on standard error, exit status 2. */
export class DumpFileError extends Error {}

export async function runDump(args: DumpArgs, io: DumpIO): Promise<number> {
  let dump = await openDump(args.file, io);
  if (args.rollout !== null) {
    const rollout = await openDump(args.rollout, io);
    if (rollout.kind !== "rollout")
      throw new DumpFileError(
        `${printable(args.rollout)}: --rollout takes a rollout dump; this is a ${rollout.kind} file`,
      );
    dump = pairDumps(dump, rollout, args.rollout);
  }
  if (dump.kind !== "train") throw new DumpFileError(nothingToReplay(args.file, dump));
  const settings = dumpSettings(dump, args.settings);
  const result = replayDump(dump, settings);
  if (!result.ok)
    throw new DumpFileError(
      `${printable(args.file)}: cannot replay with ${settingsLine(settings)}: ${printable(result.error)}`,
    );
  const trials = args.search ? searchSettings(dump, settings) : null;
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
    io.stdout(
      io.json({
        file: args.file,
        ...jsonReport(dump, settings, result.samples, result.passed),
        ...(trials ? { search: trials.map(trialJson) } : {}),
      }),
    );
  } else {
    io.stdout(textReport(args, dump, settings, result.samples, result.passed, trials));
  }
  return result.passed ? 0 : 1;
}

async function openDump(path: string, io: DumpIO): Promise<UnderstoodDump> {
  let bytes: Uint8Array;
  try {
    bytes = path === "-" ? await io.readStdin() : await io.readFile(path);
  } catch (error) {
    throw new DumpFileError(`cannot read ${printable(path)}: ${printable((error as Error).message)}`);
  }
  const name = path === "-" ? "standard input" : (path.split("/").pop() ?? path);
  const file = readTensorFile(bytes, name);
  if (!file.ok) throw new DumpFileError(printable(file.error.message));
  const dump = understandDump(file.value.root, name);
  if (!dump.ok) throw new DumpFileError(printable(dump.error.message));
  return { ...dump.value, notes: [...file.notes, ...dump.value.notes] };
}

function nothingToReplay(file: string, dump: UnderstoodDump): string {
  if (dump.kind === "rollout") {
    return `${printable(file)}: a rollout dump (${dump.samples.length} Samples) holds no advantages to replay; give its train dump, with --rollout ${printable(file)}`;
  }
  const lanes = dump.lanes;
  const found = lanes
    ? (["rewards", "values", "kl", "lossMask"] as const)
        .filter((k) => lanes[k])
        .map((k) => `${k} (${lanes[k]?.length} rows)`)
    : [];
  const unused = lanes?.unused.length ? `; other tensors: ${lanes.unused.map(printable).join(", ")}` : "";
  return `${printable(file)}: not a slime train dump, nothing to replay (lanes found: ${found.join(", ") || "none"}${unused}); open it in the playground`;
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
  settings: SlimeSettings,
  samples: SampleReplay[],
  passed: boolean,
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
  const out = [
    `${printable(args.file)}: slime train dump, ${samples.length} samples, replayed with ${settingsLine(settings)}`,
  ];
  for (const note of dump.notes) out.push(`  note: ${printable(note)}`);
  out.push("", table.header, table.rule);
  samples.forEach((s, i) => {
    out.push(table.rows[i]);
    if (!s.passed) out.push(`    ${failureLine(s)}`);
  });
  out.push(
    "",
    passed
      ? `all ${samples.length} samples within their float32 bounds`
      : `${failed} of ${samples.length} samples outside their float32 bounds`,
  );
  if (trials) {
    const good = trials.filter((t) => t.passed);
    out.push(
      "",
      good.length > 0
        ? "settings that reproduce the dump:"
        : "no estimator, normalisation and KL formula reproduces the dump with this gamma, lambd and kl-coef",
    );
    for (const t of good) out.push(`  ${settingsLine(t.settings)}`);
  }
  return out.join("\n");
}

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
      return `${name}: ${f.failures} of ${s.length} tokens outside their bound; worst at token ${f.worstToken}: gap ${num(f.worstGap)}, bound ${num(f.worstBound)}`;
    })
    .join("; ");
}

function num(x: number): string {
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
  };
}

function jsonReport(dump: UnderstoodDump, settings: SlimeSettings, samples: SampleReplay[], passed: boolean) {
  return {
    passed,
    settings: {
      advantage_estimator: settings.advantageEstimator,
      gamma: settings.gamma,
      lambd: settings.lambd,
      kl_coef: settings.klCoef,
      kl_loss_type: settings.klLossType,
      normalize_advantages: settings.normalizeAdvantages,
      use_rollout_logprobs: settings.useRolloutLogprobs,
      context_parallel_size: settings.contextParallelSize,
    },
    notes: dump.notes,
    samples: samples.map((s, i) => {
      const d = dump.samples[i];
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
        reference: { advantages: Array.from(s.reference.advantages), returns: Array.from(s.reference.returns) },
      };
    }),
  };
}

function trialJson(t: ReturnType<typeof searchSettings>[number]) {
  return { settings: settingsLine(t.settings), passed: t.passed, samples_passed: t.samplesPassed };
}
