import { describe, expect, it } from "vitest";
import { fixtureBytes, SHARED_TRAIN_DUMPS } from "../io/slimeDump/dumpFixtures";
import { scanlab } from "../testing/cliTestKit";

const files = (...paths: string[]) =>
  Object.fromEntries(paths.map((p) => [p.split("/").pop() as string, fixtureBytes(p)]));
const rpp = SHARED_TRAIN_DUMPS[0];
const ppo = SHARED_TRAIN_DUMPS[1];

describe("scanlab dump", () => {
  it("exit 0 and a row per sample for the shared dumps with their settings", async () => {
    for (const d of SHARED_TRAIN_DUMPS) {
      const name = d.file.split("/").pop() as string;
      const r = await scanlab(["dump", name, ...d.flags], files(d.file));
      expect(r.stderr).toBe("");
      expect(r.status).toBe(0);
      expect(r.stdout).toContain("all 8 samples within their float32 bounds");
      expect(r.stdout.split("\n").filter((l) => /^\d+ +\d+ +\d+ /.test(l))).toHaveLength(8);
    }
  });

  it("--json: passed, the samples in the dump's order, each with its gaps and the float64 reference", async () => {
    const r = await scanlab(["dump", "train_ppo_g099_l095_kl002.pt", ...ppo.flags, "--json"], files(ppo.file));
    expect(r.status).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.passed).toBe(true);
    expect(report.settings).toMatchObject({
      advantage_estimator: "ppo",
      kl_loss_type: "k2",
      normalize_advantages: true,
    });
    expect(report.samples.map((s: { rollout_position: number }) => s.rollout_position)).toEqual([
      0, 1, 2, 3, 4, 5, 6, 7,
    ]);
    const first = report.samples[0];
    expect(first.passed).toBe(true);
    expect(first.reference.advantages).toHaveLength(first.response_length);
    expect(first.reference.returns).toHaveLength(first.response_length);
    expect(first.max_gap.advantages).toBeGreaterThan(0);
    expect(first.max_gap.advantages).toBeLessThan(first.advantages.worst_bound * 10);
  });

  it("exit 1 when the settings do not reproduce the dump, naming the worst token", async () => {
    const r = await scanlab(
      [
        "dump",
        "train_rpp_g099_kl005.pt",
        "--advantage-estimator",
        "reinforce_plus_plus",
        "--gamma",
        "0.9",
        "--kl-coef",
        "0.05",
      ],
      files(rpp.file),
    );
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/advantages: \d+ of \d+ tokens outside; worst at token \d+/);
    expect(r.stdout).toContain("samples outside their float32 bounds");
  });

  it("--search-settings lists the settings that reproduce the dump", async () => {
    const r = await scanlab(
      ["dump", "train_rpp_g099_kl005.pt", "--gamma", "0.99", "--kl-coef", "0.05", "--search-settings"],
      files(rpp.file),
    );
    expect(r.stdout).toContain(
      "settings that reproduce the dump (--search-settings):\n  --advantage-estimator reinforce_plus_plus --gamma 0.99 --kl-coef 0.05 --kl-loss-type k1",
    );
  });

  it("exit 2, one line, no stack trace: the hostile pickle, a truncated file, a plain file, a rollout dump, bad arguments", async () => {
    const evil = await scanlab(["dump", "evil_reduce.pt"], files("slime-shared/evil_reduce.pt"));
    expect(evil.status).toBe(2);
    expect(evil.stderr).toMatch(
      /^scanlab: evil_reduce\.pt: record evil_reduce\/data\.pkl, byte 257: GLOBAL "posix\.system" is not allowed/,
    );
    const cut = await scanlab(["dump", "t.pt"], { "t.pt": fixtureBytes(rpp.file).subarray(0, 5000) });
    expect(cut.status).toBe(2);
    expect(cut.stderr).toContain("truncated");
    const plain = await scanlab(["dump", "plain_dict.pt"], files("slime-shared/plain_dict.pt"));
    expect(plain.status).toBe(2);
    expect(plain.stderr).toContain("nothing to replay (lanes found: rewards (4 rows), lossMask (4 rows))");
    const rollout = await scanlab(["dump", "rollout_eval_5.pt"], files("slime-shared/rollout_eval_5.pt"));
    expect(rollout.status).toBe(2);
    for (const argv of [
      ["dump"],
      ["dump", "x.pt", "--gamma", "0x1"],
      ["dump", "x.pt", "--advantage-estimator", "dpo"],
      ["dump", "x.pt", "--gamma", "1", "--gamma", "1"],
    ]) {
      const bad = await scanlab(argv, {});
      expect(bad.status).toBe(2);
      expect(bad.stderr).not.toMatch(/\n\s+at /);
    }
    const cp = await scanlab(["dump", "x.pt", "--context-parallel-size", "0"], {});
    expect(cp.stderr).toMatch(
      /^scanlab: --context-parallel-size must be a whole number from 1 to 1024; got "0"\n\nUsage: scanlab dump FILE/,
    );
    expect(cp.stderr).not.toContain("scanlab check FILE");
    const missing = await scanlab(["dump", "nope.pt"], {});
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain("cannot read nope.pt");
  });

  it("--rollout pairs the Samples, and refuses a file that is not a rollout dump", async () => {
    const paired = await scanlab(
      [
        "dump",
        "rpp_norm_g1_kl002_k2.pt",
        "--rollout",
        "rollout_of_rpp_norm_g1_kl002_k2.pt",
        "--advantage-estimator",
        "reinforce_plus_plus",
        "--gamma",
        "1",
        "--kl-coef",
        "0.02",
        "--kl-loss-type",
        "k2",
        "--normalize-advantages",
        "--json",
      ],
      files("generated/rpp_norm_g1_kl002_k2.pt", "generated/rollout_of_rpp_norm_g1_kl002_k2.pt"),
    );
    expect(paired.status).toBe(0);
    expect(JSON.parse(paired.stdout).samples[0].rollout.status).toMatch(/completed|truncated/);
    const wrong = await scanlab(
      ["dump", "train_rpp_g099_kl005.pt", "--rollout", "plain_dict.pt"],
      files(rpp.file, "slime-shared/plain_dict.pt"),
    );
    expect(wrong.status).toBe(2);
  });

  it("--export-cases writes a slime_dump case that scanlab check verifies, for every estimator", async () => {
    for (const d of SHARED_TRAIN_DUMPS) {
      const name = d.file.split("/").pop() as string;
      const written: Record<string, string | Uint8Array> = files(d.file);
      const r = await scanlab(["dump", name, ...d.flags, "--export-cases", "out.json"], written);
      expect(r.status).toBe(0);
      const file = JSON.parse(written["out.json"] as string);
      expect(file.cases).toHaveLength(1);
      expect(file.cases[0]).toMatchObject({
        kind: "slime_dump",
        settings: { advantage_estimator: d.settings.advantageEstimator },
      });
      const check = await scanlab(["check", "out.json"], written);
      expect(check.stderr).toBe("");
      expect(check.status).toBe(0);
    }
    // Every estimator has a case now: the replay covers the broadcast ones too.
    const written: Record<string, string | Uint8Array> = files("generated/grpo_kl0.pt");
    const grpo = await scanlab(
      ["dump", "grpo_kl0.pt", "--advantage-estimator", "grpo", "--export-cases", "o.json"],
      written,
    );
    expect(grpo.status).toBe(0);
    expect((await scanlab(["check", "o.json"], written)).status).toBe(0);
  });

  it("reads standard input for -", async () => {
    const r = await scanlab(["dump", "-", ...rpp.flags], {}, fixtureBytes(rpp.file));
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^-: slime train dump, 8 samples/);
  });

  it("dump --help shows the dump usage", async () => {
    const r = await scanlab(["dump", "--help"]);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^Usage: scanlab dump FILE/);
  });
});
