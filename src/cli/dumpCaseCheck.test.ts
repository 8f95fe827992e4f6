import { describe, expect, it } from "vitest";
import { parseCaseFile } from "../io/caseFile";
import type { SlimeDumpCase } from "../io/caseSchema";
import { dumpSettings, replayDump } from "../io/slimeDump";
import {
  fixtureBytes,
  MANIFEST,
  type ManifestEntry,
  manifestSettings,
  SHARED_TRAIN_DUMPS,
} from "../io/slimeDump/dumpFixtures";
import { scanlab } from "../testing/cliTestKit";
import { openDumpBytes, type StoredField, tamperDump } from "../testing/dumpTamperKit";

/**
 * `scanlab dump --export-cases` and `scanlab check` on the export must give the same verdict: the
 * case carries the dump's stored values as the values under test, so a dump that fails exports a
 * case that fails, in every mode, and one that passes exports one that passes.
 */

/** slime's flags for a manifest entry's settings, as the dump command takes them. */
function manifestFlags(entry: ManifestEntry): string[] {
  const flags: string[] = [];
  for (const [key, value] of Object.entries(entry.settings ?? {})) {
    // The groups are read off the prompts: rollout_batch_size is no replay setting.
    if (key === "rollout_batch_size") continue;
    const flag = `--${key.replaceAll("_", "-")}`;
    if (value === true) flags.push(flag);
    else if (value !== false) flags.push(flag, String(value));
  }
  if (entry.cp_size !== undefined && entry.cp_size !== 1) flags.push("--context-parallel-size", String(entry.cp_size));
  return flags;
}

interface TrainFixture {
  file: string;
  flags: string[];
  given: Record<string, unknown>;
}

const TRAIN: TrainFixture[] = [
  ...MANIFEST.filter((e) => e.kind === "train" && e.expect === "pass").map((e) => ({
    file: `generated/${e.file}`,
    flags: manifestFlags(e),
    given: manifestSettings(e),
  })),
  ...SHARED_TRAIN_DUMPS.map((d) => ({ file: d.file, flags: [...d.flags], given: { ...d.settings } })),
];
/** The torch-zip dumps, whose bytes the tamper kit can edit (the legacy format is read, not edited here). */
const ZIP_TRAIN = TRAIN.filter((d) => fixtureBytes(d.file)[0] === 0x50);
const MODES = ["float64", "float32", "slime-exact"] as const;

/** `scanlab dump` on the bytes with --export-cases, then `scanlab check` on the export in every core mode. */
async function dumpThenCheck(bytes: Uint8Array, flags: string[]) {
  const files: Record<string, string | Uint8Array> = { "d.pt": bytes };
  const dump = await scanlab(["dump", "d.pt", ...flags, "--export-cases", "d.json"], files);
  expect(dump.stderr).toBe("");
  const checks = [];
  for (const mode of MODES) checks.push(await scanlab(["check", "d.json", "--mode", mode], files));
  return { dump, checks, text: files["d.json"] as string };
}

function expectSameVerdict(run: Awaited<ReturnType<typeof dumpThenCheck>>, status: 0 | 1) {
  expect(run.dump.status).toBe(status);
  for (const check of run.checks) {
    expect(check.stderr).toBe("");
    expect(check.status).toBe(status);
  }
}

function replayOf(d: TrainFixture, bytes: Uint8Array) {
  const dump = openDumpBytes(bytes);
  const result = replayDump(dump, dumpSettings(dump, d.given));
  if (!result.ok) throw new Error(result.error);
  return { dump, result };
}

function tampered(d: TrainFixture, sample: number, field: StoredField, token: number, value: number) {
  return tamperDump(fixtureBytes(d.file), sample, field, token, value);
}

describe("an exported dump case passes check exactly when the dump passes", () => {
  it.each(TRAIN.map((d) => [d.file, d] as const))(
    "%s: both pass, and the stored values round-trip exactly",
    async (_, d) => {
      const bytes = fixtureBytes(d.file);
      const run = await dumpThenCheck(bytes, d.flags);
      expectSameVerdict(run, 0);
      expect(run.checks[0].stdout).toContain(
        "slime_dump case: the dump's stored values judged by core's float64 replay",
      );
      const c = parseCaseFile(run.text, "d.json").cases[0] as SlimeDumpCase;
      expect(c.kind).toBe("slime_dump");
      const dump = openDumpBytes(bytes);
      expect(c.stored).toHaveLength(dump.samples.length);
      dump.samples.forEach((s, i) => {
        expect(c.stored[i].returns).toEqual(Array.from(s.returns ?? []));
        expect(c.stored[i].advantages).toEqual(Array.from(s.advantages ?? []));
        expect(c.samples[i].reward).toBe(s.reward);
      });
    },
  );

  it.each(ZIP_TRAIN.map((d) => [d.file, d] as const))(
    "%s: one stored return moved by 10× its bound fails both",
    async (_, d) => {
      const { result } = replayOf(d, fixtureBytes(d.file));
      // The token with the largest finite bound of the longest sample: a move of 10× it is over any tolerance.
      const sample = result.samples.reduce((best, s, i) => (s.length > result.samples[best].length ? i : best), 0);
      const bounds = result.samples[sample].bounds.returns;
      let token = 0;
      bounds.forEach((b, t) => {
        if (Number.isFinite(b) && b > bounds[token]) token = t;
      });
      const stored = openDumpBytes(fixtureBytes(d.file)).samples[sample].returns as Float64Array;
      const run = await dumpThenCheck(
        tampered(d, sample, "returns", token, stored[token] + 10 * bounds[token]),
        d.flags,
      );
      expectSameVerdict(run, 1);
      for (const check of run.checks) expect(check.stdout).toMatch(new RegExp(`sample ${sample}: .*returns: 1 of`));
    },
  );

  it.each(ZIP_TRAIN.map((d) => [d.file, d] as const))(
    '%s: NaN at one stored token fails both, and is written as "NaN"',
    async (_, d) => {
      const { result } = replayOf(d, fixtureBytes(d.file));
      const sample = result.samples.findIndex((s) => s.length > 0);
      const run = await dumpThenCheck(tampered(d, sample, "advantages", 0, Number.NaN), d.flags);
      expectSameVerdict(run, 1);
      expect(run.text).toContain('"NaN"');
      const c = parseCaseFile(run.text, "d.json").cases[0] as SlimeDumpCase;
      expect(c.stored[sample].advantages[0]).toBeNaN();
    },
  );

  const normalisedPpo = TRAIN.filter((d) => d.given.advantageEstimator === "ppo" && d.given.normalizeAdvantages);
  it.each(normalisedPpo.map((d) => [d.file, d] as const))(
    "%s: a whitened advantage moved by 1e-3 fails both, off the whitening map",
    async (_, d) => {
      const stored = openDumpBytes(fixtureBytes(d.file)).samples[1].advantages as Float64Array;
      const run = await dumpThenCheck(tampered(d, 1, "advantages", 5, stored[5] + 1e-3), d.flags);
      expectSameVerdict(run, 1);
      for (const check of run.checks) {
        expect(check.stdout).toMatch(/sample 1: advantages: .*off the whitening map shared by the whole batch/);
      }
    },
  );

  it("normalised ppo fixtures exist to tamper", () => {
    expect(normalisedPpo.length).toBeGreaterThanOrEqual(2);
    expect(ZIP_TRAIN.length).toBeGreaterThanOrEqual(TRAIN.length - 1);
  });

  it("--engine tfjs and --json judge the export the same way, saying whose values are under test", async () => {
    const d = TRAIN.find((t) => t.file.endsWith("train_rpp_g099_kl005.pt")) as TrainFixture;
    const files: Record<string, string | Uint8Array> = {
      "ok.pt": fixtureBytes(d.file),
      "bad.pt": tampered(d, 0, "returns", 0, Number.POSITIVE_INFINITY),
    };
    for (const [name, status] of [
      ["ok", 0],
      ["bad", 1],
    ] as const) {
      const dump = await scanlab(["dump", `${name}.pt`, ...d.flags, "--export-cases", `${name}.json`], files);
      expect(dump.status).toBe(status);
      const tfjs = await scanlab(["check", `${name}.json`, "--engine", "tfjs"], files);
      expect(tfjs.stderr).toBe("");
      expect(tfjs.status).toBe(status);
      const json = await scanlab(["check", `${name}.json`, "--json"], files);
      expect(json.status).toBe(status);
      const report = JSON.parse(json.stdout);
      expect(report.slime_dump_cases).toMatch(/the same in every mode and engine/);
      expect(report.cases[0].kind).toBe("slime_dump");
      expect(report.cases[0].passed).toBe(status === 0);
    }
  });
});
