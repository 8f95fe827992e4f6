import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { cpLayout, responseIndices, type SlimeSettings, sliceBack } from "../../core";
import { refusalMessage } from "../../testing/resultKit";
import { bytesSource } from "../tensorFiles/byteSource";
import {
  groupRankFiles,
  mergeRankDumps,
  openDump,
  type PyDict,
  pairDumps,
  type RankFile,
  readTensorFile,
  understandDump,
} from ".";
import { checkDump } from "./checkDump";
import { fixtureBytes, type ManifestEntry, manifestSettings } from "./dumpFixtures";

/** cases/dumps/rank-format/: slime's first dump format, written by slime's own code at d38dc29c9 (README there). */
interface RankSet {
  set: string;
  rollout_id: number;
  files: string[];
  rollout: string;
  settings: ManifestEntry["settings"];
  cp_size: number;
  expect: string;
}

const SETS: RankSet[] = JSON.parse(
  readFileSync(new URL("../../../cases/dumps/rank-format/manifest.json", import.meta.url), "utf8"),
).sets;

function setOf(name: string): RankSet {
  return SETS.find((s) => s.set === name) as RankSet;
}

/** A fixture read afresh (a test may change its tree), named as `as` says. */
function rankFile(path: string, as = path): RankFile {
  const file = readTensorFile(fixtureBytes(`rank-format/${path}`), as);
  if (!file.ok) throw file.error;
  return { source: as, root: file.value.root };
}

function filesOf(name: string, ranks?: number[]): RankFile[] {
  const s = setOf(name);
  return s.files.filter((_, r) => !ranks || ranks.includes(r)).map((f) => rankFile(f));
}

function merged(files: RankFile[], options = {}) {
  const result = mergeRankDumps(files, options);
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

const refusal = (files: RankFile[], options = {}) => refusalMessage(mergeRankDumps(files, options), "rank dumps");

function rollout(file: RankFile): Map<string, unknown> {
  return (file.root as PyDict).get("rollout_data") as Map<string, unknown>;
}

function given(s: RankSet): Partial<SlimeSettings> {
  return manifestSettings({ file: s.set, kind: "train", expect: "pass", settings: s.settings, cp_size: s.cp_size });
}

describe("groupRankFiles", () => {
  it("groups per-rank files by step, in rank order, and hands every other path back", () => {
    const paths = [
      "debug/3_1.pt",
      "train_data/4.pt",
      "debug/3_10.pt",
      "debug/3_0.pt",
      "debug/3_2.pt",
      "rollout_data/eval_5.pt",
      "x\\12_0.pt",
      "notes/3_0.pth",
      "debug/3_a.pt",
    ];
    const { steps, notRankFiles } = groupRankFiles(paths);
    expect([...steps.keys()]).toEqual([3, 12]);
    expect(steps.get(3)).toEqual(["debug/3_0.pt", "debug/3_1.pt", "debug/3_2.pt", "debug/3_10.pt"]);
    expect(steps.get(12)).toEqual(["x\\12_0.pt"]);
    expect(notRankFiles).toEqual(["train_data/4.pt", "rollout_data/eval_5.pt", "notes/3_0.pth", "debug/3_a.pt"]);
    const listed = [...[...steps.values()].flat(), ...notRankFiles];
    expect(listed.sort()).toEqual([...paths].sort());
  });
});

describe("slime's first dump format, merged per step (fixtures written by slime d38dc29c9)", () => {
  for (const s of SETS) {
    it(`${s.set}: every file accounted for, the step whole in rollout order, cp_size ${s.cp_size}`, () => {
      const m = merged(filesOf(s.set));
      expect(m.step).toBe(s.rollout_id);
      expect(m.cpSize).toBe(s.cp_size);
      expect(m.files.map((f) => f.source)).toEqual(s.files);
      expect(
        m.files.filter((f) => !f.used).every((f) => m.dump.notes.some((n) => n.includes(`${f.source}: not used`))),
      ).toBe(true);
      expect(m.dump.kind).toBe("train");
      const raw = rollout(filesOf(s.set)[0]).get("raw_reward") as number[];
      expect(m.dump.samples.map((x) => x.rolloutPosition)).toEqual(raw.map((_, p) => p));
      expect(m.dump.samples.map((x) => x.rawReward)).toEqual(raw);
      for (const x of m.dump.samples) {
        for (const field of ["advantages", "returns", "kl"] as const) expect(x[field]?.length).toBe(x.responseLength);
      }
    });

    it(`${s.set}: paired with its rollout dump by rollout_position, every length agreeing`, () => {
      const m = merged(filesOf(s.set));
      const r = rankFile(s.rollout);
      const rolloutDump = understandDump(r.root, r.source);
      if (!rolloutDump.ok) throw rolloutDump.error;
      const paired = pairDumps(m.dump, rolloutDump.value, r.source);
      expect(paired.notes.filter((n) => n.includes(r.source))).toEqual([]);
      expect(paired.samples.every((x) => x.rollout?.status === "completed")).toBe(true);
    });
  }

  it("the CP slices put back: slicing each merged field again gives every rank's file exactly", () => {
    const files = filesOf("rpp_cp2");
    const m = merged(files);
    const locals = files.map((f) => rollout(f));
    const indices = locals[0].get("sample_indices") as number[];
    m.dump.samples.forEach((x) => {
      const i = indices.indexOf(x.sampleIndex as number);
      const layout = cpLayout(x.totalLength as number, x.responseLength, 2);
      for (const field of ["advantages", "returns", "kl", "logProbs"] as const) {
        const key = field === "logProbs" ? "log_probs" : field;
        const back = sliceBack(layout, x[field] as Float64Array);
        locals.forEach((l, r) => {
          const stored = (l.get(key) as { data: Float32Array }[])[i].data;
          expect(Array.from(back[r])).toEqual(Array.from(stored));
        });
      }
    });
  });

  it("merges the same whatever order the files come in", () => {
    const files = filesOf("ppo_cp2_dp2");
    const a = merged(files).dump.samples;
    const b = merged([files[3], files[1], files[0], files[2]]).dump.samples;
    expect(b.map((x) => [x.sampleIndex, x.dataParallelRank, Array.from(x.advantages as Float64Array)])).toEqual(
      a.map((x) => [x.sampleIndex, x.dataParallelRank, Array.from(x.advantages as Float64Array)]),
    );
  });

  for (const name of ["rpp_cp2", "rppb_tp2_pp2"]) {
    it(`${name}: replays with no settings given, every stage passing, the settings read back`, () => {
      const s = setOf(name);
      const check = checkDump(merged(filesOf(name)).dump, {});
      expect(check.stages.map((x) => [x.stage, x.status])).toEqual([
        ["rewards", "pass"],
        ["kl", "pass"],
        ["returns", "pass"],
        ["advantages", "pass"],
      ]);
      expect(check.passed).toBe(true);
      const want = given(s);
      expect(check.settings.advantageEstimator).toBe(want.advantageEstimator);
      expect(check.settings.normalizeAdvantages).toBe(want.normalizeAdvantages ?? false);
      expect(check.settings.klCoef).toBeCloseTo(want.klCoef as number, 3);
    });
  }

  it("ppo_cp2_dp2: slime d38dc29c9 stored ppo's kl scaled in place: the kl stage departs and is named, returns and advantages pass", () => {
    const check = checkDump(merged(filesOf("ppo_cp2_dp2")).dump, {});
    expect(check.passed).toBe(false);
    expect(check.stages.map((x) => [x.stage, x.status])).toEqual([
      ["rewards", "pass"],
      ["kl", "fail"],
      ["returns", "pass"],
      ["advantages", "pass"],
    ]);
    expect(check.settings.contextParallelSize).toBe(2);
    expect(check.diagnosis?.sentence).toContain("#2114");
  });

  it("a value changed in one rank's slice fails the merged step at that sample and response token", () => {
    const files = filesOf("rpp_cp2");
    const local = 3;
    const data = rollout(files[1]);
    // Tensors read their elements from the file when asked: change a copy and put it back.
    const tensor = (data.get("advantages") as { data: Float32Array }[])[local];
    const advantages = tensor.data;
    const k = 5;
    advantages[k] += 0.25;
    tensor.data = advantages;
    const m = merged(files);
    const sample = m.dump.samples.findIndex((x) => x.sampleIndex === (data.get("sample_indices") as number[])[local]);
    const x = m.dump.samples[sample];
    const responseIndex = responseIndices(cpLayout(x.totalLength as number, x.responseLength, 2).ranks[1])[k];
    const check = checkDump(m.dump, given(setOf("rpp_cp2")));
    expect(check.passed).toBe(false);
    const stage = check.stages.find((s) => s.stage === "advantages");
    expect(stage?.status).toBe("fail");
    expect(stage?.departing).toEqual([sample]);
    if (!check.replay.ok) throw new Error(check.replay.error);
    expect(check.replay.samples[sample].advantages.worstToken).toBe(responseIndex);
  });

  it("a per-rank file that holds its step whole opens alone, as the train dump it is", () => {
    const file = rankFile("rppb_tp2_pp2/train_data/2_2.pt", "2_2.pt");
    const dump = understandDump(file.root, "2_2.pt");
    if (!dump.ok) throw dump.error;
    expect(dump.value.kind).toBe("train");
    expect(dump.value.samples).toHaveLength(6);
    expect(dump.value.notes[0]).toContain("2_2.pt: slime's first train-dump format");
    const opened = openDump(bytesSource(fixtureBytes("rank-format/rppb_tp2_pp2/train_data/2_2.pt"), "2_2.pt"));
    if (!opened.ok) throw opened.error;
    expect(opened.value.step).toBe(2);
  });
});

describe("rollout positions of files written before local_raw_reward (slime before c1dd9ab24)", () => {
  function withoutLocalRawReward(name: string): RankFile[] {
    const files = filesOf(name);
    for (const f of files) rollout(f).delete("local_raw_reward");
    return files;
  }

  it("taken from sample_index order where the rewards are raw_reward's (ppo: slime does not normalise them)", () => {
    const m = merged(withoutLocalRawReward("ppo_cp2_dp2"));
    expect(m.dump.samples.map((x) => x.rolloutPosition)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(m.dump.notes.some((n) => n.includes("their rewards are raw_reward's, in order"))).toBe(true);
  });

  it("unknown where the rewards are normalised, then given by the rollout dump paired by sample_index", () => {
    const m = merged(withoutLocalRawReward("rppb_tp2_pp2"));
    expect(m.dump.samples.map((x) => x.rolloutPosition)).toEqual([null, null, null, null, null, null]);
    expect(m.dump.notes.some((n) => n.includes("no local_raw_reward to check that order"))).toBe(true);
    const r = rankFile(setOf("rppb_tp2_pp2").rollout);
    const rolloutDump = understandDump(r.root, r.source);
    if (!rolloutDump.ok) throw rolloutDump.error;
    const paired = pairDumps(m.dump, rolloutDump.value, r.source);
    expect(paired.samples.map((x) => x.rolloutPosition)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(paired.samples.map((x) => x.rawReward)).toEqual(rollout(filesOf("rppb_tp2_pp2")[2]).get("raw_reward"));
    const check = checkDump(paired, {});
    expect(check.rewards.checked && check.rewards.passed).toBe(true);
    expect(check.passed).toBe(true);
  });
});

describe("refusals name the files and say what to give", () => {
  it("one CP rank's file alone: the slice, and the file missing", () => {
    const file = rankFile("ppo_cp2_dp2/train_data/5_0.pt", "train_data/5_0.pt");
    const dump = understandDump(file.root, "train_data/5_0.pt");
    expect(dump.ok).toBe(false);
    if (dump.ok) return;
    expect(dump.error.message).toMatch(
      /^train_data\/5_0\.pt: rank 0's slice of rollout_data\.advantages\[\d+\] is CP-local \(cp_size 2, CP rank 0: \d+ of the response's \d+ tokens\): give all ranks of step 5 — missing: train_data\/5_1\.pt$/,
    );
  });

  it("a rank missing from a step: the file whose slice needs it, and the missing file", () => {
    expect(refusal(filesOf("ppo_cp2_dp2", [0, 1, 2]))).toMatch(
      /^ppo_cp2_dp2\/train_data\/5_2\.pt: rank 2's slice of rollout_data\.advantages\[\d+\] is CP-local \(cp_size 2, CP rank 0: .*\): give all ranks of step 5 — missing: ppo_cp2_dp2\/train_data\/5_3\.pt$/,
    );
    expect(refusal(filesOf("ppo_cp2_dp2", [0, 2]))).toContain(
      "missing: ppo_cp2_dp2/train_data/5_1.pt, ppo_cp2_dp2/train_data/5_3.pt",
    );
  });

  it("a data-parallel shard missing: the samples counted against raw_reward, and where the files stop", () => {
    const message = refusal(filesOf("ppo_cp2_dp2", [0, 1]));
    expect(message).toMatch(
      /^ppo_cp2_dp2\/train_data\/5_0\.pt, ppo_cp2_dp2\/train_data\/5_1\.pt: the files hold \d of step 5's 8 samples \(raw_reward lists 8\)/,
    );
    expect(message).toContain("from ppo_cp2_dp2/train_data/5_2.pt on");
  });

  it("CP-local slices without the layout (no total_lengths): the file, the field and why", () => {
    const files = filesOf("rpp_cp2");
    for (const f of files) rollout(f).delete("total_lengths");
    expect(refusal(files)).toMatch(
      /^rpp_cp2\/train_data\/7_0\.pt: rank 0's rollout_data\.advantages\[0\] holds \d+ of the response's 33 tokens: a context-parallel slice, and rollout_data has no total_lengths/,
    );
  });

  it("a cp_size given that the slices do not fit", () => {
    expect(refusal(filesOf("rpp_cp2"), { contextParallelSize: 3 })).toMatch(
      /^rpp_cp2\/train_data\/7_0\.pt: rank 0's rollout_data\.advantages\[0\] holds \d+ of the response's 33 tokens \(a 38-token sample\): no context-parallel rank of cp_size 3/,
    );
  });

  it("ranks of two steps mixed: every file, by step", () => {
    const message = refusal([...filesOf("ppo_cp2_dp2", [0, 1]), ...filesOf("rpp_cp2", [0])]);
    expect(message).toContain(
      "ranks of 2 steps: step 5 (ppo_cp2_dp2/train_data/5_0.pt, ppo_cp2_dp2/train_data/5_1.pt) and step 7 (rpp_cp2/train_data/7_0.pt); merge the files of one step at a time",
    );
  });

  it("a rank twice: both files", () => {
    const a = rankFile("rpp_cp2/train_data/7_0.pt", "a/7_0.pt");
    const b = rankFile("rpp_cp2/train_data/7_0.pt", "b/7_0.pt");
    expect(refusal([a, b, ...filesOf("rpp_cp2", [1])])).toContain(
      "rank 0 of step 7 twice (a/7_0.pt, b/7_0.pt): give each rank's file once",
    );
  });

  it("only the first pipeline stage's files: nothing holds advantages", () => {
    expect(refusal(filesOf("rppb_tp2_pp2", [0, 1]))).toBe(
      "rppb_tp2_pp2/train_data/2_0.pt, rppb_tp2_pp2/train_data/2_1.pt: none of the files holds advantages (rollout_data.advantages): they are the first pipeline stages' files; give the last stage's ranks of step 2",
    );
  });

  it("two tensor-parallel copies that disagree: both files, the field, sample and token", () => {
    const files = filesOf("rppb_tp2_pp2");
    const tensor = (rollout(files[3]).get("advantages") as { data: Float32Array }[])[2];
    const changed = tensor.data;
    changed[1] += 0.5;
    tensor.data = changed;
    expect(refusal(files)).toMatch(
      /^rppb_tp2_pp2\/train_data\/2_2\.pt, rppb_tp2_pp2\/train_data\/2_3\.pt: hold the same samples, whole, but different values \(rollout_data\.advantages\[2\], token 1: /,
    );
  });

  it("a file of another kind given as a rank file", () => {
    const file = readTensorFile(fixtureBytes("generated/grpo_kl0.pt"), "grpo_kl0.pt");
    if (!file.ok) throw file.error;
    expect(refusal([{ source: "grpo_kl0.pt", root: file.value.root }])).toBe(
      "grpo_kl0.pt: is no per-rank train dump: its object is not {rollout_id, rank, rollout_data}",
    );
  });
});

describe("what is merged without a refusal, and said", () => {
  it("a missing file nothing depends on (a first-stage rank), the pipeline stage and the copy: each named", () => {
    const m = merged(filesOf("rppb_tp2_pp2", [0, 2, 3]));
    expect(m.dump.notes).toContain(
      "rppb_tp2_pp2/train_data/2_{0,2,3}.pt: rppb_tp2_pp2/train_data/2_1.pt not given; not needed: the files hold every sample of raw_reward and every context-parallel slice",
    );
    expect(m.files.map((f) => [f.source, f.used])).toEqual([
      ["rppb_tp2_pp2/train_data/2_0.pt", false],
      ["rppb_tp2_pp2/train_data/2_2.pt", true],
      ["rppb_tp2_pp2/train_data/2_3.pt", false],
    ]);
    expect(m.files[2].why).toBe("the same values as rppb_tp2_pp2/train_data/2_2.pt (a tensor-parallel copy)");
  });

  it("a file named for another rank than it holds: read as what it holds, and said", () => {
    const m = merged([rankFile("rpp_cp2/train_data/7_0.pt", "x/7_4.pt"), ...filesOf("rpp_cp2", [1])]);
    expect(m.dump.notes).toContain(
      "x/7_4.pt: named step 7, rank 4, but it holds rollout_id 7, rank 0; read as what it holds",
    );
  });
});
