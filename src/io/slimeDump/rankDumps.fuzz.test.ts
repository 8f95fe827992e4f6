import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { PyDict, PyValue, Tensor } from "../tensorFiles/tensorTypes";
import { mergeRankDumps, readTensorFile, understandDump } from ".";
import { fixtureBytes } from "./dumpFixtures";

const seed = Number(process.env.SCANLAB_FC_SEED ?? 20261205);

const SETS: Record<string, string[]> = {
  ppo_cp2_dp2: [0, 1, 2, 3].map((r) => `ppo_cp2_dp2/train_data/5_${r}.pt`),
  rpp_cp2: [0, 1].map((r) => `rpp_cp2/train_data/7_${r}.pt`),
  rppb_tp2_pp2: [0, 1, 2, 3].map((r) => `rppb_tp2_pp2/train_data/2_${r}.pt`),
};

function read(path: string): PyDict {
  const file = readTensorFile(fixtureBytes(`rank-format/${path}`), path);
  if (!file.ok) throw file.error;
  return file.value.root as PyDict;
}

const KEYS = [
  "response_lengths",
  "total_lengths",
  "loss_masks",
  "advantages",
  "returns",
  "kl",
  "log_probs",
  "tokens",
  "sample_indices",
  "raw_reward",
  "local_raw_reward",
  "rewards",
];
const ODD: PyValue[] = [null, "x", -1, 2 ** 60, 0.5, [], new Map(), [1, 2, 3]];

/** One change to a rank file's tree: what a damaged, hand-edited or foreign file could hold. */
const change = fc.oneof(
  fc.record({ op: fc.constant("delete" as const), key: fc.constantFrom(...KEYS) }),
  fc.record({ op: fc.constant("replace" as const), key: fc.constantFrom(...KEYS), odd: fc.constantFrom(...ODD) }),
  fc.record({
    op: fc.constant("entry" as const),
    key: fc.constantFrom(...KEYS),
    at: fc.nat(8),
    odd: fc.constantFrom(...ODD),
  }),
  fc.record({
    op: fc.constant("shorten" as const),
    key: fc.constantFrom(...KEYS),
    at: fc.nat(8),
    by: fc.integer({ min: 1, max: 40 }),
  }),
  fc.record({
    op: fc.constant("root" as const),
    key: fc.constantFrom("rollout_id", "rank"),
    odd: fc.constantFrom<PyValue>(...ODD, 0, 1, 3, 7),
  }),
);

function apply(root: PyDict, c: Record<string, unknown>): void {
  const data = root.get("rollout_data") as PyDict;
  const key = c.key as string;
  if (c.op === "root") root.set(key, c.odd as PyValue);
  else if (c.op === "delete") data.delete(key);
  else if (c.op === "replace") data.set(key, c.odd as PyValue);
  else {
    const list = data.get(key);
    if (!Array.isArray(list) || list.length === 0) return;
    const i = (c.at as number) % list.length;
    if (c.op === "entry") list[i] = c.odd as PyValue;
    else if (typeof list[i] === "object" && list[i] !== null && (list[i] as Tensor).kind === "tensor") {
      const t = list[i] as Tensor;
      const n = Math.max(0, t.data.length - (c.by as number));
      list[i] = { ...t, data: t.data.subarray(0, n), shape: [n] };
    }
  }
}

describe("per-rank files changed at random: merged, or refused naming a file, never an internal error", () => {
  it("mergeRankDumps and understandDump on damaged trees", () => {
    let merged = 0;
    fc.assert(
      fc.property(
        fc.constantFrom(...Object.keys(SETS)),
        fc.array(fc.tuple(fc.nat(3), change), { minLength: 1, maxLength: 3 }),
        (set, changes) => {
          const paths = SETS[set];
          const roots = paths.map(read);
          for (const [f, c] of changes) apply(roots[f % roots.length], c as Record<string, unknown>);
          const result = mergeRankDumps(roots.map((root, k) => ({ source: paths[k], root })));
          if (result.ok) merged += 1;
          else {
            expect(paths.some((p) => result.error.message.startsWith(p))).toBe(true);
            expect(result.error.message).not.toContain("could not be");
          }
          const alone = understandDump(roots[0], paths[0]);
          if (!alone.ok) {
            expect(alone.error.message.startsWith(`${paths[0]}: `)).toBe(true);
            expect(alone.error.message).not.toContain("could not be");
          }
        },
      ),
      { seed, numRuns: 300 },
    );
    expect(merged).toBeGreaterThan(10);
  });
});
