import { baseName, groupRankFiles } from "./rankFiles";

/**
 * A run directory as slime's `--dump-details DIR` writes it, planned from the files' names alone:
 * `train_data/{rollout_id}.pt` and `rollout_data/{rollout_id}.pt` for every rollout step (and, in
 * slime's first format, `train_data/{rollout_id}_{rank}.pt` per rank). The content still decides
 * once a file is read; this only says which files make which step, and why every other file is left.
 */

export interface RunStepPlan {
  /** The rollout id, as the files' names say it. */
  step: number;
  /** The train dump: one gathered file, or a step's per-rank files in rank order; empty when there is none. */
  train: string[];
  /** Whether `train` is one gathered dump or slime's first, per-rank format. */
  format: "gathered" | "per-rank";
  rollout: string | null;
  /** Why the step gets no verdict before anything is read (a rollout dump without its train dump); null otherwise. */
  noVerdict: string | null;
}

export interface UnusedFile {
  path: string;
  why: string;
}

export interface RunPlan {
  /** By rollout id, ascending. */
  steps: RunStepPlan[];
  /** Every path given that no step uses, in the order given, each with why. */
  unused: UnusedFile[];
}

/** `{id}.pt` (or `.pth`): a gathered dump's name. */
const STEP_FILE_NAME = /^(\d{1,15})\.(pt|pth)$/;

const DUMP_NAMES =
  "slime names its dumps train_data/{rollout_id}.pt, rollout_data/{rollout_id}.pt (and train_data/{rollout_id}_{rank}.pt in its first format)";

/**
 * The steps of a run directory, from the paths of its files (relative or absolute, `/` or `\`):
 * each train dump paired with the rollout dump of the same id, per-rank files grouped by step.
 * A gathered `{id}.pt` outside `rollout_data/` is taken as a train dump (a folder flattened by
 * hand keeps slime's names). Every path lands in exactly one step or in `unused`, with why.
 */
export function planRun(paths: readonly string[]): RunPlan {
  const unused: UnusedFile[] = [];
  const trains = new Map<number, string>();
  const rollouts = new Map<number, string>();
  const trainSide: string[] = [];
  const seen = new Set<string>();
  for (const path of paths) {
    if (seen.has(path)) {
      unused.push({ path, why: "given twice: it is read once" });
      continue;
    }
    seen.add(path);
    if (isRolloutPath(path)) {
      const id = stepFileId(path);
      if (id === null) unused.push({ path, why: `not a dump name: ${DUMP_NAMES}` });
      else claim(rollouts, id, path, "rollout", unused);
    } else {
      trainSide.push(path);
    }
  }
  const ranks = groupRankFiles(trainSide);
  for (const path of ranks.notRankFiles) {
    const id = stepFileId(path);
    if (id === null) unused.push({ path, why: whyNotADump(path) });
    else claim(trains, id, path, "train", unused);
  }
  const ids = new Set<number>([...trains.keys(), ...rollouts.keys(), ...ranks.steps.keys()]);
  const steps: RunStepPlan[] = [];
  for (const step of [...ids].sort((a, b) => a - b)) {
    const gathered = trains.get(step);
    const perRank = ranks.steps.get(step) ?? [];
    if (gathered && perRank.length > 0) {
      for (const path of perRank)
        unused.push({ path, why: `step ${step} has a gathered train dump, ${gathered}, which is read instead` });
    }
    const rollout = rollouts.get(step) ?? null;
    const train = gathered ? [gathered] : perRank;
    steps.push({
      step,
      train,
      format: gathered || perRank.length === 0 ? "gathered" : "per-rank",
      rollout,
      noVerdict:
        train.length === 0
          ? `no train dump of step ${step} (train_data/${step}.pt): a rollout dump holds no advantages to replay`
          : null,
    });
  }
  return { steps, unused };
}

/** The rollout id a gathered dump's name says, or null. */
export function stepFileId(path: string): number | null {
  const match = STEP_FILE_NAME.exec(baseName(path));
  return match ? Number(match[1]) : null;
}

function isRolloutPath(path: string): boolean {
  const parts = path.split(/[\\/]/);
  return parts.length >= 2 && parts[parts.length - 2] === "rollout_data";
}

/** The first file of a step's role is used; a second (another copy of the run, say) is named, not read. */
function claim(
  map: Map<number, string>,
  id: number,
  path: string,
  role: "train" | "rollout",
  unused: UnusedFile[],
): void {
  const first = map.get(id);
  if (first === undefined) map.set(id, path);
  else unused.push({ path, why: `a second ${role} dump of step ${id}: ${first} is read` });
}

function whyNotADump(path: string): string {
  const name = baseName(path);
  if (/\.(pt|pth|npz|safetensors)$/i.test(name))
    return `not named as a step's dump (${DUMP_NAMES}); open it alone with scanlab dump FILE`;
  return `not a dump name: ${DUMP_NAMES}`;
}
