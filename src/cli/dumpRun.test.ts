import { describe, expect, it } from "vitest";
import { fixtureBytes } from "../io/slimeDump/dumpFixtures";
import { bytesSource } from "../io/tensorFiles/byteSource";
import { lastLine, scanlab } from "../testing/cliTestKit";

/** A run directory in memory, built from the committed fixtures (each stores its own rollout_id). */
const RUN: Record<string, string> = {
  "run/train_data/11.pt": "generated/grpo_kl0.pt",
  "run/train_data/14.pt": "generated/rpp_norm_g1_kl002_k2.pt",
  "run/rollout_data/14.pt": "generated/rollout_of_rpp_norm_g1_kl002_k2.pt",
  "run/train_data/17.pt": "generated/ppo_g1_l1_kl001_k3.pt",
  "run/train_data/7_0.pt": "rank-format/rpp_cp2/train_data/7_0.pt",
  "run/train_data/7_1.pt": "rank-format/rpp_cp2/train_data/7_1.pt",
  "run/rollout_data/7.pt": "rank-format/rpp_cp2/rollout_data/7.pt",
};

function files(run: Record<string, string>): Record<string, Uint8Array | string> {
  return Object.fromEntries(Object.entries(run).map(([path, fixture]) => [path, fixtureBytes(fixture)]));
}

const stepRows = (stdout: string) =>
  stdout.split("\n").filter((l) => /^\d+ +\d+ +\d+ +(pass|FAIL|not checked)/.test(l));

describe("scanlab dump DIR", () => {
  it("prints each step's row as soon as that step is read, before the next step's files are opened", async () => {
    const events: string[] = [];
    const run = files(RUN);
    const r = await scanlab(["dump", "run"], run, "", {
      stdout: (text) => {
        for (const line of text.split("\n"))
          if (/^\d+ +\d+ +\d+ +(pass|FAIL|not checked)/.test(line)) events.push(`row ${line.split(" ")[0]}`);
      },
      openFile: (path, name) => {
        events.push(`open ${path}`);
        return { ...bytesSource(run[path] as Uint8Array, name), close: () => {} };
      },
    });
    expect(r.status).toBe(0);
    const opens = (step: string) => events.findIndex((e) => e.startsWith("open") && e.includes(`/${step}`));
    expect(events.indexOf("row 7")).toBeLessThan(opens("11.pt"));
    expect(events.indexOf("row 11")).toBeLessThan(opens("14.pt"));
    expect(events.indexOf("row 14")).toBeLessThan(opens("17.pt"));
    expect(events.at(-1)).toBe("row 17");
  });

  it("a line per step by rollout id, each train dump paired with its rollout dump, and the totals", async () => {
    const r = await scanlab(["dump", "run"], { ...files(RUN), "run/notes.txt": "hello", "run/logs/x.txt": "" });
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    const rows = stepRows(r.stdout);
    expect(rows.map((l) => l.split(/ +/).slice(0, 4))).toEqual([
      ["7", "5", expect.any(String), "pass"],
      ["11", "4", expect.any(String), "pass"],
      ["14", "8", expect.any(String), "pass"],
      ["17", "4", expect.any(String), "pass"],
    ]);
    // The header and the rows share their columns (columns.ts).
    const header = r.stdout.split("\n").find((l) => l.startsWith("step"));
    expect(header).toContain("worst gap/bound");
    expect(rows[0].indexOf("pass")).toBe(header?.indexOf("verdict"));
    // Step 14 has its rollout dump: its truncated share is known; 11 has none.
    expect(rows[2]).toMatch(/\d+\.\d%\s+\d+\.\d%$/);
    expect(r.stdout).toContain("not used: run/notes.txt: not a dump name");
    expect(r.stdout).toContain("not used: run/logs/: a folder");
    expect(lastLine(r.stdout)).toBe("4 passed, 0 failed");
  });

  it("several files: exit 1 when a step fails, not-checked steps counted, the rollout alone named", async () => {
    const run = {
      "a/train_data/11.pt": "generated/grpo_kl0.pt",
      "a/train_data/102.pt": "variants/whiten_per_cp_rank.pt",
      "a/rollout_data/5.pt": "rank-format/rpp_cp2/rollout_data/7.pt",
    };
    const r = await scanlab(["dump", ...Object.keys(run)], files(run));
    expect(r.status).toBe(1);
    const rows = stepRows(r.stdout);
    expect(rows.map((l) => l.split(/ +/)[0])).toEqual(["5", "11", "102"]);
    expect(rows[0]).toContain("not checked");
    expect(r.stdout).toContain("no train dump of step 5");
    expect(r.stdout).toContain("note: a/rollout_data/5.pt: stores rollout_id 7, its name says step 5");
    expect(rows[2]).toContain("FAIL");
    expect(lastLine(r.stdout)).toBe("1 passed, 1 failed, 1 not checked");
  });

  it("--json: a JSON line per step, one per file not used, then the totals; tokens only with --tokens", async () => {
    const r = await scanlab(["dump", "run", "--json"], { ...files(RUN), "run/x.bin": "x" });
    expect(r.status).toBe(0);
    const lines = r.stdout.split("\n").map((l) => JSON.parse(l));
    expect(lines.map((l) => l.type)).toEqual(["step", "step", "step", "step", "not_used", "total"]);
    expect(lines[2]).toMatchObject({
      step: 14,
      verdict: "passed",
      samples: 8,
      files: { train: ["run/train_data/14.pt"], rollout: "run/rollout_data/14.pt" },
    });
    expect(lines[2].reward.of).toBe("raw");
    expect(lines[2].report).toBeUndefined();
    expect(lines[5]).toEqual({ type: "total", steps: 4, passed: 4, failed: 0, not_checked: 0 });
    const withTokens = await scanlab(["dump", "run", "--json", "--tokens"], files(RUN));
    const step = JSON.parse(withTokens.stdout.split("\n")[0]);
    expect(step.report.samples[0].reference.advantages).toHaveLength(step.report.samples[0].response_length);
  });

  it("exit 2 when nothing could be read, every file still named", async () => {
    const r = await scanlab(["dump", "d"], {
      "d/train_data/3.pt": fixtureBytes("generated/truncated.pt"),
      "d/a.txt": "",
    });
    expect(r.status).toBe(2);
    expect(r.stdout).toContain("d/train_data/3.pt");
    expect(r.stdout).toContain("not used: d/a.txt");
    expect(r.stderr).toContain("no step could be read");
    const none = await scanlab(["dump", "d"], { "d/a.txt": "" });
    expect(none.status).toBe(2);
    expect(none.stderr).toContain("no dump named as slime names them");
  });

  it("one file keeps the single-dump report; run-only and single-only flags are refused together", async () => {
    const one = await scanlab(["dump", "run/train_data/11.pt"], files(RUN));
    expect(one.stdout).toContain("slime train dump, 4 samples");
    const rollout = await scanlab(["dump", "a.pt", "b.pt", "--rollout", "c.pt"], {});
    expect(rollout.status).toBe(2);
    expect(rollout.stderr).toContain("--rollout takes one dump");
    const dir = await scanlab(["dump", "run", "--search-settings"], files(RUN));
    expect(dir.stderr).toContain("--search-settings takes one dump");
    const tokens = await scanlab(["dump", "run", "--tokens"], files(RUN));
    expect(tokens.stderr).toContain("--tokens goes with --json");
  });
});
