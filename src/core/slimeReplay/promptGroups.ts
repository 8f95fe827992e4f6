import type { ReplaySample } from "./settings";

/** One prompt's group: the indices of its samples, in the batch's order. */
export interface PromptGroup {
  group: number;
  samples: number[];
}

/**
 * The batch's prompt groups from each sample's `group`, in order of first appearance; null when a
 * sample's group is not known (the stage cannot be replayed without all of them).
 */
export function promptGroups(samples: ReplaySample[]): PromptGroup[] | null {
  const byGroup = new Map<number, number[]>();
  for (let i = 0; i < samples.length; i++) {
    const g = samples[i].group;
    if (g === undefined) return null;
    const members = byGroup.get(g);
    if (members) members.push(i);
    else byGroup.set(g, [i]);
  }
  return [...byGroup].map(([group, members]) => ({ group, samples: members }));
}

/**
 * slime's n_samples_per_prompt as the batch shows it: the most common group size (the larger on a
 * tie, as a short group is the usual accident: an aborted or filtered sample). 0 for no groups.
 */
export function modalGroupSize(sizes: number[]): number {
  const counts = new Map<number, number>();
  for (const n of sizes) counts.set(n, (counts.get(n) ?? 0) + 1);
  let best = 0;
  let bestCount = 0;
  for (const [n, c] of counts) {
    if (c > bestCount || (c === bestCount && n > best)) {
      best = n;
      bestCount = c;
    }
  }
  return best;
}

/** The groups whose size differs from the most common one: what makes slime's batch "uneven". */
export function unevenGroups(groups: PromptGroup[]): PromptGroup[] {
  const n = modalGroupSize(groups.map((g) => g.samples.length));
  return groups.filter((g) => g.samples.length !== n);
}
