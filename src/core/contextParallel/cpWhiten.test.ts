import { describe, expect, it } from "vitest";
import { whitenAdvantages } from "../conventions/whiten";
import { cpWhiten } from "./cpWhiten";
import { reassemble } from "./gather";
import { cpLayout } from "./layout";

const advantages = Float64Array.from({ length: 12 }, (_, t) => (t < 8 ? 0.1 * t : 5 + t));
const mask = [1, 1, 1, 1, 0, 1, 1, 1, 1, 1, 0, 1];

describe("whitening under context parallelism", () => {
  it("over the DP×CP group gives every rank the statistics of the whole sample (cp_size 1's)", () => {
    // Worked example: rank 0 holds tokens 8–11 (large advantages), rank 1 tokens 0–7 (small ones).
    const layout = cpLayout(20, 12, 2);
    const run = cpWhiten([layout], [advantages], [mask]);
    const cp1 = whitenAdvantages("slime", [advantages], [mask])[0];
    const whitened = run.group.whitened;
    if (!whitened) throw new Error("expected group whitening");
    const back = reassemble(
      layout,
      whitened.map((rows) => rows[0]),
    );
    back.forEach((x, t) => {
      expect(x).toBeCloseTo(cp1[t], 12);
    });
    expect(run.group.stats?.n).toBe(10);
  });

  it("per rank (before slime PR #2235) normalises the same sample differently on each rank", () => {
    const layout = cpLayout(20, 12, 2);
    const run = cpWhiten([layout], [advantages], [mask]);
    const [rank0, rank1] = run.perRank.stats;
    expect(rank0?.n).toBe(3); // tokens 8, 9, 11
    expect(rank1?.n).toBe(7); // tokens 0–7 but 4
    expect(rank0?.mean).toBeCloseTo((13 + 14 + 16) / 3, 12);
    expect(rank1?.mean).toBeCloseTo((0 + 0.1 + 0.2 + 0.3 + 0.5 + 0.6 + 0.7) / 7, 12);
    // Each rank's own pieces come out centred on 0 (masked mean), which the group's do not.
    const own = run.perRank.whitened[0]?.[0];
    const group = run.group.whitened?.[0][0];
    if (!own || !group) throw new Error("expected both whitenings");
    expect((own[0] + own[1] + own[3]) / 3).toBeCloseTo(0, 12);
    expect((group[0] + group[1] + group[3]) / 3).toBeGreaterThan(0.5);
  });

  it("has no statistics for a rank with no unmasked token (slime raises a ValueError there)", () => {
    // T = 13, R = 6, cp_size 2: rank 0 holds no response token.
    const run = cpWhiten([cpLayout(13, 6, 2)], [Float64Array.from([1, 2, 3, 4, 5, 6])], [[1, 1, 1, 1, 1, 1]]);
    expect(run.perRank.stats[0]).toBeNull();
    expect(run.perRank.whitened[0]).toBeNull();
    expect(run.group.stats?.n).toBe(6);
  });

  it("at cp_size 1 is the same both ways", () => {
    const run = cpWhiten([cpLayout(20, 12, 1)], [advantages], [mask]);
    expect(run.perRank.stats[0]).toEqual(run.group.stats);
  });
});
