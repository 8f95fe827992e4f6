import { describe, expect, it } from "vitest";
import { planRun } from "./runDirectory";

describe("planRun", () => {
  it("pairs each train dump with the rollout dump of the same id, steps by rollout id", () => {
    const plan = planRun([
      "run/train_data/10.pt",
      "run/rollout_data/2.pt",
      "run/train_data/2.pt",
      "run/rollout_data/10.pt",
      "run/train_data/9.pt",
    ]);
    expect(plan.steps.map((s) => [s.step, s.train, s.rollout])).toEqual([
      [2, ["run/train_data/2.pt"], "run/rollout_data/2.pt"],
      [9, ["run/train_data/9.pt"], null],
      [10, ["run/train_data/10.pt"], "run/rollout_data/10.pt"],
    ]);
    expect(plan.unused).toEqual([]);
  });

  it("lists a rollout dump without its train dump as a step with no verdict", () => {
    const plan = planRun(["rollout_data/4.pt", "train_data/5.pt"]);
    expect(plan.steps[0]).toMatchObject({ step: 4, train: [], rollout: "rollout_data/4.pt" });
    expect(plan.steps[0].noVerdict).toContain("no train dump of step 4");
    expect(plan.steps[1].noVerdict).toBeNull();
  });

  it("groups slime's first, per-rank format by step and rank", () => {
    const plan = planRun(["train_data/5_1.pt", "train_data/5_0.pt", "rollout_data/5.pt", "train_data/6.pt"]);
    expect(plan.steps[0]).toMatchObject({
      step: 5,
      format: "per-rank",
      train: ["train_data/5_0.pt", "train_data/5_1.pt"],
      rollout: "rollout_data/5.pt",
    });
    expect(plan.steps[1]).toMatchObject({ step: 6, format: "gathered" });
  });

  it("names every file it does not use, and why", () => {
    const paths = [
      "run/.DS_Store",
      "run/train_data/3.pt",
      "run/train_data/3_0.pt",
      "run/notes.txt",
      "run/rollout_data/eval_3.pt",
      "run/batch.npz",
      "copy/train_data/3.pt",
      "run/train_data/3.pt",
    ];
    const plan = planRun(paths);
    expect(plan.steps).toHaveLength(1);
    const why = Object.fromEntries(plan.unused.map((u) => [u.path, u.why]));
    expect(why["run/.DS_Store"]).toMatch(/^not a dump name/);
    expect(why["run/notes.txt"]).toMatch(/^not a dump name/);
    expect(why["run/rollout_data/eval_3.pt"]).toMatch(/^not a dump name/);
    expect(why["run/batch.npz"]).toMatch(/open it alone with scanlab dump FILE/);
    expect(why["copy/train_data/3.pt"]).toBe("a second train dump of step 3: run/train_data/3.pt is read");
    expect(why["run/train_data/3_0.pt"]).toContain("gathered train dump, run/train_data/3.pt");
    expect(why["run/train_data/3.pt"]).toBe("given twice: it is read once");
    // Every path given is in a step or named as not used.
    const used = plan.steps.flatMap((s) => [...s.train, ...(s.rollout ? [s.rollout] : [])]);
    expect(used.length + plan.unused.length).toBe(paths.length);
  });

  it("takes Windows separators and a flattened folder's {id}.pt as train dumps", () => {
    const plan = planRun(["C:\\run\\rollout_data\\1.pt", "1.pt"]);
    expect(plan.steps).toEqual([
      { step: 1, train: ["1.pt"], format: "gathered", rollout: "C:\\run\\rollout_data\\1.pt", noVerdict: null },
    ]);
  });
});
