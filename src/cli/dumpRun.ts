import { printable } from "../io/printable";
import {
  newRunSettingsMemo,
  planRun,
  type RunStepRead,
  readRunStep,
  type StepSummary,
  type UnusedFile,
  type WorstGap,
} from "../io/slimeDump";
import type { DumpArgs } from "./dumpArgs";
import { DumpFileError, type DumpIO, jsonReport, num, STREAM_ABOVE_BYTES } from "./dumpCommand";
import { UsageError } from "./parseOptions";

/** The folders of a run directory read besides its top: slime writes its dumps there. */
const RUN_FOLDERS = ["train_data", "rollout_data"];

/**
 * `scanlab dump DIR` and `scanlab dump FILE...`: every step of a run read in turn (one step's dump
 * in memory at a time), a line per step, every file not used named with why, and the totals.
 * Exit 1 when any step fails, 2 when no step could be read.
 */
export async function runDumpRun(args: DumpArgs, io: DumpIO): Promise<number> {
  const single =
    args.rollout !== null
      ? "rollout"
      : args.exportCases !== null
        ? "export-cases"
        : args.search
          ? "search-settings"
          : null;
  if (single) throw new UsageError(`--${single} takes one dump; a directory is a run, paired by its files' names`);
  const listed = listRun(args.paths, io);
  const plan = planRun(listed.files);
  const unused: UnusedFile[] = [...listed.unused, ...plan.unused];
  const reads: RunStepRead[] = [];
  // Each step is printed as soon as it is read: a run of 50 steps takes a minute, and the first
  // steps are what a user looks at while the rest are read.
  if (!args.json) io.stdout(textHead(args.paths, plan.steps.length));
  // The settings read off one step are tried first on the next (a step that fails is read alone).
  // With --tokens each step's report prints its settings and how they were read: read off its own.
  const memo = args.tokens ? null : newRunSettingsMemo();
  for (const step of plan.steps) {
    // A step's train dump above scanlab dump FILE's size for reading whole is read as that command
    // reads it, a window of samples at a time, its file open until the step's line is written.
    const read1 = readRunStep(step, (path) => io.openFile(path, path), args.settings, memo, {
      streamAbove: STREAM_ABOVE_BYTES,
    });
    try {
      const read = { ...read1, notes: [...read1.notes, ...(read1.dump?.notes ?? [])] };
      unused.push(...read.unused);
      io.stdout(args.json ? io.json(stepJson(read, step.train, step.rollout, args.tokens), 0) : textStep(read));
      // Only the row is kept: the step's dump is released before the next is read.
      reads.push({ ...read, dump: null, check: null, release: undefined });
    } finally {
      read1.release?.();
    }
  }
  const totals = countVerdicts(reads.map((r) => r.summary));
  if (args.json) {
    for (const u of unused) io.stdout(io.json({ type: "not_used", path: u.path, why: u.why }, 0));
    io.stdout(io.json({ type: "total", steps: reads.length, ...totals }, 0));
  } else {
    io.stdout(textTail(unused, totals));
  }
  if (nothingRead(reads)) {
    throw new DumpFileError(
      plan.steps.length === 0
        ? `${args.paths.map(printable).join(", ")}: no dump named as slime names them (train_data/{rollout_id}.pt, rollout_data/{rollout_id}.pt)`
        : `${args.paths.map(printable).join(", ")}: no step could be read`,
    );
  }
  return totals.failed > 0 ? 1 : 0;
}

/** The files of the paths given: a directory's own files and those of its train_data/ and rollout_data/. */
function listRun(paths: string[], io: DumpIO): { files: string[]; unused: UnusedFile[] } {
  const files: string[] = [];
  const unused: UnusedFile[] = [];
  const walk = (dir: string, depth: number) => {
    const entries = io.listDir(dir) ?? [];
    for (const entry of [...entries].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      const path = `${dir.replace(/\/+$/, "")}/${entry.name}`;
      if (!entry.directory) files.push(path);
      else if (depth === 0 && RUN_FOLDERS.includes(entry.name)) walk(path, 1);
      else unused.push({ path: `${path}/`, why: "a folder: only a run's train_data/ and rollout_data/ are read" });
    }
  };
  for (const path of paths) {
    if (path !== "-" && io.listDir(path) !== null) walk(path, RUN_FOLDERS.includes(lastName(path)) ? 1 : 0);
    else files.push(path);
  }
  return { files, unused };
}

function lastName(path: string): string {
  return path.replace(/\/+$/, "").split("/").pop() ?? path;
}

function countVerdicts(steps: StepSummary[]) {
  let passed = 0;
  let failed = 0;
  let notChecked = 0;
  for (const s of steps) {
    if (s.verdict === "passed") passed++;
    else if (s.verdict === "failed") failed++;
    else notChecked++;
  }
  return { passed, failed, not_checked: notChecked };
}

/** Nothing could be read: no step, or none whose files gave a single sample. */
function nothingRead(reads: RunStepRead[]): boolean {
  return reads.every((r) => r.summary.verdict === "not checked" && r.summary.samples === 0);
}

const HEADERS = [
  "step",
  "samples",
  "tokens",
  "verdict",
  "worst gap/bound",
  "reward mean±std",
  "kl mean",
  "length mean/max",
  "truncated",
  "padding",
];
/** Each column as wide as its header or its usual widest cell (`1.02e-3 advantages`, `0.469±0.499`, `8630/16013`). */
const WIDTHS = [6, 7, 9, 11, 19, 15, 8, 15, 9, 7];

/** The run's title and the table's header, printed before the first step is read. */
function textHead(paths: string[], steps: number): string {
  return [
    `${paths.map(printable).join(" ")}: slime run, ${steps} step${steps === 1 ? "" : "s"}`,
    "",
    columns(HEADERS),
    columns(WIDTHS.map((w) => "-".repeat(w))),
  ].join("\n");
}

/** One step's row, then why it failed or was not checked, and its notes. */
function textStep({ summary: s, notes }: RunStepRead): string {
  const row = columns([
    String(s.step),
    String(s.samples),
    String(s.tokens),
    s.verdict === "passed" ? "pass" : s.verdict === "failed" ? "FAIL" : "not checked",
    worstCell(s),
    s.reward ? `${short(s.reward.mean)}±${short(s.reward.std)}${s.reward.of === "raw" ? "" : " (trained)"}` : "-",
    s.klMean === null ? "-" : num(s.klMean),
    s.samples > 0 ? `${s.length.mean.toFixed(0)}/${s.length.max}` : "-",
    s.truncatedShare === null ? "-" : percent(s.truncatedShare),
    s.samples > 0 ? percent(s.paddingShare) : "-",
  ]);
  const out = [row];
  if (s.why) out.push(`    ${printable(s.why)}`);
  for (const note of notes) out.push(`    note: ${printable(note)}`);
  return out.join("\n");
}

function textTail(unused: UnusedFile[], totals: ReturnType<typeof countVerdicts>): string {
  const out: string[] = [];
  if (unused.length > 0) out.push("");
  for (const u of unused) out.push(`not used: ${printable(u.path)}: ${printable(u.why)}`);
  out.push(
    "",
    `${totals.passed} passed, ${totals.failed} failed${totals.not_checked > 0 ? `, ${totals.not_checked} not checked` : ""}`,
  );
  return out.join("\n");
}

/**
 * Cells padded to fixed widths, two spaces apart: rows are printed as their steps are read, so
 * the widths cannot wait for the widest cell; a longer cell pushes the rest of its row right.
 */
function columns(cells: string[]): string {
  return cells
    .map((cell, i) => cell.padEnd(WIDTHS[i]))
    .join("  ")
    .trimEnd();
}

/** The step's worst share of its bound, advantages or returns, with its field; none where nothing was replayed. */
function worstCell(s: StepSummary): string {
  const worst = worstField(s);
  if (!worst) return "-";
  return `${short(worst.gap.share)} ${worst.field}`;
}

function worstField(s: StepSummary): { field: "advantages" | "returns"; gap: WorstGap } | null {
  const a = s.worst.advantages;
  const r = s.worst.returns;
  if (a && (!r || a.share >= r.share)) return { field: "advantages", gap: a };
  return r ? { field: "returns", gap: r } : null;
}

function short(x: number): string {
  if (!Number.isFinite(x)) return String(x);
  if (x === 0) return "0";
  return Math.abs(x) >= 1e-3 && Math.abs(x) < 1e4 ? String(Number(x.toPrecision(3))) : x.toExponential(2);
}

function percent(x: number): string {
  return `${(x * 100).toFixed(1)}%`;
}

function worstJson(w: WorstGap | null) {
  return w ? { gap: w.gap, bound: w.bound, share: w.share, sample: w.sample, token: w.token } : null;
}

function stepJson(read: RunStepRead, train: string[], rollout: string | null, tokens: boolean) {
  const s = read.summary;
  const replay = read.check?.replay;
  return {
    type: "step",
    step: s.step,
    files: { train, rollout },
    samples: s.samples,
    tokens: s.tokens,
    verdict: s.verdict,
    why: s.why,
    worst: { advantages: worstJson(s.worst.advantages), returns: worstJson(s.worst.returns) },
    reward: s.reward,
    kl_mean: s.klMean,
    length: s.length,
    truncated_share: s.truncatedShare,
    padding_share: s.paddingShare,
    notes: read.notes,
    ...(tokens && read.dump && read.check && replay?.ok
      ? { report: jsonReport(read.dump, read.check, replay.samples) }
      : {}),
  };
}
