import { describe, expect, it } from "vitest";
import { openFixtureDump } from "../../testing/dumpTamperKit";
import { checkDump } from "./checkDump";

const klStage = (check: ReturnType<typeof checkDump>) => check.stages.find((s) => s.stage === "kl");

describe("checkDump's KL stage", () => {
  it("a gspo dump with a KL stored but kl_coef unreadable: not checked, saying why and what to give; given, checked", () => {
    // Written with kl_coef 0.01, k3: slime stores the KL, gspo leaves it out of its advantages.
    const dump = openFixtureDump("generated/gspo_norm_kl001_k3.pt");
    const alone = checkDump(dump, {});
    expect(alone.settings.klCoef).toBe(0);
    expect(klStage(alone)).toMatchObject({ status: "not checked" });
    // The dump has log-probs: the old sentence ("no log-probs in the dump") was not true.
    expect(dump.samples[0].logProbs).toBeDefined();
    expect(klStage(alone)?.sentence).toBe(
      "not recomputed: kl_coef is taken as 0, but the stored KL is not zero (slime stores zeros with kl_coef 0; grpo leaves the KL out of its advantages, so they cannot say kl_coef): give kl_coef and kl_loss_type to check it",
    );
    const given = checkDump(dump, { klCoef: 0.01, klLossType: "k3" });
    expect(klStage(given)).toMatchObject({ status: "pass" });
  });
});
