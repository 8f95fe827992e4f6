import { modalGroupSize } from "../../core";
import { isTensor, leadingElements, type PyValue, type Tensor } from "../tensorFiles/tensorTypes";

/** The prompt groups of a train dump, as recovered from its samples' prompt tokens. */
export interface PromptGroupSummary {
  /** slime's n_samples_per_prompt as the batch shows it: the most common group size. */
  nSamplesPerPrompt: number;
  /** Each group's size, group g at index g (groups numbered in rollout order). */
  sizes: number[];
  /** The groups of another size than nSamplesPerPrompt, with their samples (indices into the dump's samples). */
  uneven: { group: number; size: number; samples: number[] }[];
}

export interface RecoveredGroups {
  /** Per sample (the dump's order): its group, or null for every sample when they cannot be recovered. */
  groups: (number | null)[];
  summary: PromptGroupSummary | null;
  notes: string[];
}

/**
 * A sample's prompt: `tokens[0 : total_lengths − response_lengths]`, its elements read by `read`
 * (only those: a streamed tensor's response tokens stay on disk); null when the sample has no tokens
 * tensor or lengths that do not fit it.
 */
export function promptOf(
  tokens: PyValue | undefined,
  totalLength: number | null,
  R: number,
  read: (tokens: Tensor, count: number) => ArrayLike<number> = leadingElements,
): ArrayLike<number> | null {
  if (!isTensor(tokens) || tokens.shape.length !== 1 || totalLength === null) return null;
  const P = totalLength - R;
  if (!Number.isSafeInteger(P) || P < 0 || tokens.shape[0] !== totalLength) return null;
  return read(tokens, P);
}

/**
 * slime's train dump stores no group index, but a prompt's n samples share their prompt tokens and
 * sit next to each other in rollout order (the rollout's list of groups, flattened). So: samples in
 * rollout_position order (the file's order when a position is missing), a new group whenever the
 * prompt tokens differ from the previous sample's. A run of one prompt k times the usual size is the
 * same prompt drawn k times in a row: read as k groups, as slime's reshape(-1, n) cuts it (noted).
 */
export function recoverPromptGroups(
  samples: { rolloutPosition: number | null; prompt: ArrayLike<number> | null }[],
  source: string,
): RecoveredGroups {
  const none = { groups: samples.map(() => null), summary: null };
  const missing = samples.findIndex((s) => s.prompt === null);
  if (samples.length === 0) return { ...none, notes: [] };
  if (missing >= 0) {
    const why = `${source}: samples[${missing}] has no prompt tokens (tokens, total_lengths): prompt groups not recovered`;
    return { ...none, notes: [why] };
  }
  const order = samples.map((_, i) => i);
  if (samples.every((s) => s.rolloutPosition !== null))
    order.sort((a, b) => (samples[a].rolloutPosition as number) - (samples[b].rolloutPosition as number));
  const runs: number[][] = [];
  order.forEach((i, k) => {
    const previous = k > 0 ? samples[order[k - 1]].prompt : null;
    if (previous !== null && sameTokens(previous, samples[i].prompt as ArrayLike<number>))
      runs[runs.length - 1].push(i);
    else runs.push([i]);
  });
  const notes: string[] = [];
  const n = modalGroupSize(runs.map((r) => r.length));
  const groups: number[][] = [];
  for (const run of runs) {
    if (run.length > n && run.length % n === 0) {
      notes.push(
        `${source}: samples ${place(run)} share one prompt, ${run.length / n} times the usual ${n}: read as ${run.length / n} groups (the same prompt drawn again?)`,
      );
      for (let k = 0; k < run.length; k += n) groups.push(run.slice(k, k + n));
    } else groups.push(run);
  }
  const groupOf: (number | null)[] = samples.map(() => null);
  groups.forEach((members, g) => {
    for (const i of members) groupOf[i] = g;
  });
  const sizes = groups.map((g) => g.length);
  const uneven = groups
    .map((members, group) => ({ group, size: members.length, samples: members }))
    .filter((g) => g.size !== n);
  if (uneven.length > 0) {
    const which = uneven.map((g) => `group ${g.group} has ${g.size} (samples ${place(g.samples)})`).join("; ");
    notes.push(
      `${source}: uneven prompt groups: most have ${n} samples (n_samples_per_prompt), but ${which}; under grpo, gspo, cispo or reinforce_plus_plus_baseline slime then normalises the rewards over the whole batch (issue #2230)`,
    );
  }
  return { groups: groupOf, summary: { nSamplesPerPrompt: n, sizes, uneven }, notes };
}

function sameTokens(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  if (a.length !== b.length) return false;
  for (let t = 0; t < a.length; t++) if (a[t] !== b[t]) return false;
  return true;
}

/** "4–6" for a consecutive run, else "4, 6, 9". */
function place(indices: number[]): string {
  const sorted = [...indices].sort((a, b) => a - b);
  const consecutive = sorted.every((x, k) => k === 0 || x === sorted[k - 1] + 1);
  if (sorted.length > 1 && consecutive) return `${sorted[0]}–${sorted[sorted.length - 1]}`;
  return sorted.join(", ");
}
