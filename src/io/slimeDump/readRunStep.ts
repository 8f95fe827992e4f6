import type { SlimeSettings } from "../../core";
import { describeThrown } from "../ioError";
import type { ByteSource } from "../tensorFiles/byteSource";
import { readTensorSource } from "../tensorFiles/readTensorFile";
import { checkRunStep, type RunSettingsMemo } from "./carriedSettings";
import { checkDump, type DumpCheck } from "./checkDump";
import type { UnderstoodDump } from "./dumpTypes";
import { notATrainDump } from "./nothingToReplay";
import { openDump } from "./openDump";
import { mergeRankDumps, type RankFile } from "./rankDumps";
import { replayInWindows } from "./replayDump";
import type { RunStepPlan, UnusedFile } from "./runDirectory";
import { type StepSummary, summariseStep } from "./stepSummary";
import { pairDumps } from "./understandDump";

/** Opens one file of the run by its path; throws with the system's reason when it cannot be opened. */
export type OpenRunFile = (path: string) => ByteSource & { close?(): void };

/** One step of a run read, paired, checked and summarised. */
export interface RunStepRead {
  summary: StepSummary;
  /** The train dump paired with its rollout dump (the step view's input); null when there is none to replay. */
  dump: UnderstoodDump | null;
  check: DumpCheck | null;
  /** What reading and pairing said (another step's rollout dump, a refused file), each naming its file. */
  notes: string[];
  /** Per-rank files the merge did not need, with why. */
  unused: UnusedFile[];
  /** Bytes of the step's files (for a progress rate). */
  bytes: number;
  /** The step whose settings this one passed with (carriedSettings); null when read off its own numbers. */
  settingsFrom: number | null;
  /**
   * Closes the train dump's file when it was read streamed (RunStepOptions' `streamAbove`): its long
   * fields are read from the file whenever `dump` or `check` is used, so the caller closes it after.
   */
  release?(): void;
}

/** How a step's train dump is read. */
export interface RunStepOptions {
  /**
   * A single train dump larger than this many bytes has its long per-token fields read from the file
   * a window of samples at a time (openDump's `streamed`) instead of held whole, as `scanlab dump FILE`
   * reads it: a step then costs its window in memory, not its file.
   */
  streamAbove?: number;
}

/**
 * Reads one planned step through `open` (positioned reads in the CLI, Blob slices in the page's
 * worker) and checks it with `given` over what its own numbers say. Never throws on a bad file: a
 * file refused makes the step "not checked", with the refusal (naming the file and the place) as why.
 * With a run's `memo`, the settings known from its earlier steps are tried first, and the check
 * leaves out what a row does not show (checkRunStep); without it the check is checkDump's in full.
 */
export function readRunStep(
  plan: RunStepPlan,
  open: OpenRunFile,
  given: Partial<SlimeSettings>,
  memo: RunSettingsMemo | null = null,
  options: RunStepOptions = {},
): RunStepRead {
  const notes: string[] = [];
  const unused: UnusedFile[] = [];
  let bytes = 0;
  const withSource = <T>(path: string, use: (source: ByteSource) => T): T => {
    const source = open(path);
    try {
      bytes += source.size;
      return use(source);
    } finally {
      source.close?.();
    }
  };
  const notChecked = (why: string, dump: UnderstoodDump | null): RunStepRead => ({
    summary: summariseStep(plan.step, dump ?? EMPTY, null, why),
    dump: null,
    check: null,
    notes,
    unused,
    bytes,
    settingsFrom: null,
  });

  let rollout: UnderstoodDump | null = null;
  if (plan.rollout) {
    const path = plan.rollout;
    try {
      const opened = withSource(path, openDump);
      if (!opened.ok) notes.push(opened.error.message);
      else if (opened.value.dump.kind !== "rollout")
        notes.push(`${path}: a ${opened.value.dump.kind} file, not a rollout dump: not paired`);
      else {
        rollout = opened.value.dump;
        stepMismatch(path, opened.value.step, plan.step, notes);
      }
    } catch (error) {
      notes.push(`${path}: cannot be read (${describeThrown(error)})`);
    }
  }
  if (plan.noVerdict) return notChecked(plan.noVerdict, rollout);

  let train: UnderstoodDump;
  // The train dump's file when read streamed: open until the step is released.
  let kept: (ByteSource & { close?(): void }) | null = null;
  const closeKept = () => {
    kept?.close?.();
    kept = null;
  };
  try {
    if (plan.format === "per-rank") {
      // The trees read their tensors when the merge asks for them: every rank's file stays open until then.
      const sources: (ByteSource & { close?(): void })[] = [];
      try {
        const files: RankFile[] = [];
        for (const path of plan.train) {
          const source = open(path);
          sources.push(source);
          bytes += source.size;
          const tree = readTensorSource(source);
          if (!tree.ok) return notChecked(tree.error.message, rollout);
          files.push({ source: path, root: tree.value.root });
        }
        const merged = mergeRankDumps(
          files,
          "contextParallelSize" in given ? { contextParallelSize: given.contextParallelSize } : {},
        );
        if (!merged.ok) return notChecked(merged.error.message, rollout);
        for (const use of merged.value.files) if (!use.used) unused.push({ path: use.source, why: use.why });
        train = merged.value.dump;
        stepMismatch(merged.value.label, merged.value.step, plan.step, notes);
      } finally {
        for (const source of sources) source.close?.();
      }
    } else {
      const path = plan.train[0];
      const source = open(path);
      bytes += source.size;
      const streamed = options.streamAbove !== undefined && source.size > options.streamAbove;
      if (streamed) kept = source;
      let opened: ReturnType<typeof openDump>;
      try {
        opened = openDump(source, { streamed });
      } finally {
        if (!streamed) source.close?.();
      }
      if (!opened.ok) {
        closeKept();
        return notChecked(opened.error.message, rollout);
      }
      train = opened.value.dump;
      if (train.kind !== "train") {
        closeKept();
        return notChecked(
          train.kind === "rollout"
            ? `${path}: a rollout dump where the train dump belongs`
            : notATrainDump(path, train),
          rollout,
        );
      }
      stepMismatch(path, opened.value.step, plan.step, notes);
    }
  } catch (error) {
    closeKept();
    return notChecked(`${plan.train.join(", ")}: cannot be read (${describeThrown(error)})`, rollout);
  }
  const dump = rollout && plan.rollout ? pairDumps(train, rollout, plan.rollout) : train;
  // Judged a window of samples at a time, as a dump opened alone is (`scanlab dump FILE`, the run
  // view's file): replayed whole, a step held eight float64 rows a token (512 MB at 8 M tokens).
  replayInWindows(dump);
  try {
    const { check, carriedFrom } = memo
      ? checkRunStep(dump, given, plan.step, memo)
      : { check: checkDump(dump, given), carriedFrom: null };
    const read: RunStepRead = {
      summary: summariseStep(plan.step, dump, check),
      dump,
      check,
      notes,
      unused,
      bytes,
      settingsFrom: carriedFrom,
    };
    if (kept) read.release = closeKept;
    return read;
  } catch (error) {
    // A streamed field read late: the file changed or ended since it was opened.
    if (!kept) throw error;
    closeKept();
    return notChecked(`${plan.train.join(", ")}: cannot be read (${describeThrown(error)})`, rollout);
  }
}

const EMPTY: UnderstoodDump = { kind: "train", samples: [], settingsGuess: {}, notes: [] };

/** A file whose own rollout_id is not the one its name says is still read under its name's step, and said. */
function stepMismatch(path: string, stored: number | null, named: number, notes: string[]): void {
  if (stored !== null && stored !== named)
    notes.push(`${path}: stores rollout_id ${stored}, its name says step ${named}; shown as step ${named}`);
}
