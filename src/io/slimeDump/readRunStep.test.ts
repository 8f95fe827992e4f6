import { describe, expect, it } from "vitest";
import { bytesSource } from "../tensorFiles/byteSource";
import { newRunSettingsMemo } from "./carriedSettings";
import { fixtureBytes } from "./dumpFixtures";
import { readRunStep } from "./readRunStep";
import { planRun } from "./runDirectory";

/** A run directory in memory: its paths mapped to fixture files, each refusing reads once closed (as a file handle does). */
function runOf(files: Record<string, string>) {
  const open = (path: string) => {
    if (!(path in files)) throw new Error(`ENOENT: ${path}`);
    const source = bytesSource(fixtureBytes(files[path]), path);
    let closed = false;
    return {
      ...source,
      read(offset: number, length: number) {
        if (closed) throw new Error(`${path} read after it was closed`);
        return source.read(offset, length);
      },
      close() {
        closed = true;
      },
    };
  };
  return { plan: planRun(Object.keys(files)), open };
}

describe("readRunStep", () => {
  it("a step is replayed in windows; a train dump above streamAbove is read streamed, its file open until released", () => {
    // Its 2,990-token sample is past STREAM_MIN_TOKENS: that sample's fields are read from the file when used.
    const files = { "train_data/14.pt": "generated/rpp_norm_g1_kl002_k2.pt" };
    const closed: boolean[] = [];
    const { plan, open } = runOf(files);
    const counting = (path: string) => {
      const source = open(path);
      const at = closed.push(false) - 1;
      return {
        ...source,
        close() {
          closed[at] = true;
          source.close();
        },
      };
    };
    const whole = readRunStep(plan.steps[0], counting, {}, newRunSettingsMemo());
    expect(whole.release).toBeUndefined();
    expect(closed).toEqual([true]);
    // Judged a window of samples at a time, as a dump opened alone: such a replay lends its rows.
    const replay = whole.check?.replay;
    expect(replay?.ok && typeof replay.lendRows).toBe("function");

    const streamed = readRunStep(plan.steps[0], counting, {}, newRunSettingsMemo(), { streamAbove: 0 });
    expect(streamed.summary).toEqual(whole.summary);
    expect(streamed.bytes).toBe(whole.bytes);
    // Not closed yet: the dump's long fields are still read from it (the --tokens report reads them).
    expect(closed).toEqual([true, false]);
    expect(streamed.check?.passed).toBe(true);
    streamed.release?.();
    expect(closed).toEqual([true, true]);

    // Below the size: read whole, as before.
    const small = readRunStep(plan.steps[0], counting, {}, null, { streamAbove: 1e9 });
    expect(small.release).toBeUndefined();
    expect(closed).toEqual([true, true, true]);
  });

  it("reads each step of a directory, paired and checked, per-rank steps merged", () => {
    const { plan, open } = runOf({
      "train_data/14.pt": "generated/rpp_norm_g1_kl002_k2.pt",
      "rollout_data/14.pt": "generated/rollout_of_rpp_norm_g1_kl002_k2.pt",
      "train_data/7_0.pt": "rank-format/rpp_cp2/train_data/7_0.pt",
      "train_data/7_1.pt": "rank-format/rpp_cp2/train_data/7_1.pt",
      "rollout_data/7.pt": "rank-format/rpp_cp2/rollout_data/7.pt",
      "train_data/102.pt": "variants/whiten_per_cp_rank.pt",
    });
    const steps = plan.steps.map((s) => readRunStep(s, open, {}));
    expect(steps.map((s) => [s.summary.step, s.summary.verdict])).toEqual([
      [7, "passed"],
      [14, "passed"],
      [102, "failed"],
    ]);
    expect(steps[1].dump?.samples[0].rollout?.status).toBe("completed");
    expect(steps[1].bytes).toBeGreaterThan(0);
    expect(steps.flatMap((s) => s.notes)).toEqual([]);
  });

  it("a refused file makes its step not checked, naming the file; a wrong step id is said", () => {
    const { plan, open } = runOf({
      "train_data/1.pt": "generated/truncated.pt",
      "train_data/2.pt": "generated/grpo_kl0.pt",
      "train_data/3.pt": "generated/rollout_of_rpp_norm_g1_kl002_k2.pt",
    });
    const [one, two, three] = plan.steps.map((s) => readRunStep(s, open, {}));
    expect(one.summary.verdict).toBe("not checked");
    expect(one.summary.why).toContain("train_data/1.pt");
    expect(two.summary.verdict).toBe("passed");
    expect(two.notes).toEqual(["train_data/2.pt: stores rollout_id 11, its name says step 2; shown as step 2"]);
    expect(three.summary).toMatchObject({ verdict: "not checked", why: expect.stringContaining("a rollout dump") });
  });

  it("a file that cannot be opened is named with the reason", () => {
    const plan = planRun(["train_data/4.pt"]);
    const read = readRunStep(
      plan.steps[0],
      () => {
        throw new Error("EACCES: permission denied");
      },
      {},
    );
    expect(read.summary).toMatchObject({ verdict: "not checked", samples: 0 });
    expect(read.summary.why).toBe("train_data/4.pt: cannot be read (EACCES: permission denied)");
  });
});
