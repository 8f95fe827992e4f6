import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { checkCases, coreSolver, MODE_EXPECTATION } from "../conformance";
import { exportCase } from "./caseExport";
import { parseCaseFile } from "./caseFile";
import { importCaseFile, openCase } from "./caseImport";
import { materializeRows } from "./playgroundProblem";
import type { PlaygroundState } from "./playgroundState";
import { BASE_SETTINGS, DEFAULT_PLAYGROUND_STATE, exampleById } from "./presets";
import { scanCasesOf } from "./scanCases";

const preset = (estimator: PlaygroundState["estimator"], preset: "dense" | "multi-turn" | "sparse", chunkSize = 64) =>
  ({
    ...BASE_SETTINGS,
    estimator,
    chunkSize,
    data: { source: "preset", preset, seed: 11, rows: 3, tokens: 200, ragged: true },
  }) as PlaygroundState;

const maskedRows: PlaygroundState = {
  ...BASE_SETTINGS,
  estimator: "reinforce_pp",
  gamma: 0.95,
  klCoef: 0.1,
  chunkSize: 4,
  data: {
    source: "inline",
    rows: [
      { length: 9, kl: [1, 2, 3, 4, 5, 6, 7, 8, 9], lossMask: [0, 1, 1, 0, 0, 1, 1, 0, 0], outcome: 1 },
      { length: 3, kl: [0.5, 0.5, 0.5], lossMask: [1, 1, 1], outcome: -1 },
    ],
  },
};

const STATES: [string, PlaygroundState][] = [
  ["discounted, ragged", preset("discounted", "dense")],
  ["gae, ragged", { ...preset("gae", "sparse", 16), gamma: 1, lambd: 0.9 }],
  ["reinforce_pp, multi-turn masks", preset("reinforce_pp", "multi-turn", 128)],
  ["reinforce_pp, inline masked holes", maskedRows],
  ["default first-visit state", DEFAULT_PLAYGROUND_STATE],
];

function exported(state: PlaygroundState, name?: string) {
  const result = exportCase(state, name);
  if (!result.ok) throw result.error;
  return result.value;
}

describe("a case export of NaN inputs", () => {
  it("is refused, naming lane, row and token (JSON would write them as null)", () => {
    const example = exampleById("nan-one-token");
    if (!example) throw new Error("no NaN example");
    const result = exportCase(example.state);
    expect(!result.ok && result.error.message).toBe(
      "Case export: cannot hold non-finite inputs (rewards: NaN at row 1, token 140)",
    );
  });
});

describe("case export", () => {
  it("writes a valid case file that every core mode of the checker passes", async () => {
    for (const [label, state] of STATES) {
      const { text } = exported(state);
      const file = parseCaseFile(text, label);
      expect(scanCasesOf(file)[0].tolerance, label).toBeUndefined();
      for (const mode of ["float64", "float32", "slime-exact"] as const) {
        const [verdict] = await checkCases(file.cases, coreSolver(mode), MODE_EXPECTATION[mode]);
        expect(verdict.passed, `${label}, ${mode}: ${verdict.detail}`).toBe(true);
      }
    }
  });

  it("writes ragged discounted and GAE rows padded to the longest, as slime scans them", () => {
    const state = preset("gae", "dense");
    const lengths = materializeRows(state).map((r) => r.length);
    const { file, fileName } = exported(state);
    const c = file.cases[0];
    expect(c.kind === "gae" && c.shape).toEqual([3, 200]);
    expect(c.note).toContain(`row lengths ${lengths.join(",")} right-padded with zeros to 200`);
    expect(fileName).toBe("playground_gae_B3_T200.json");
  });

  it("round-trips REINFORCE++ rows through import", () => {
    const imported = importCaseFile(exported(maskedRows, "holes").text, "holes.json");
    if (!imported.ok) throw imported.error;
    const opened = openCase(imported.value, 0, maskedRows);
    // The file records the chunk size slime scans REINFORCE++ with, not the playground's C = 4.
    expect(opened.ok && opened.value.state).toEqual({ ...maskedRows, chunkSize: 128 });
  });

  it("records REINFORCE++ at chunk size 128, as slime runs it, whatever the playground's C", () => {
    for (const chunkSize of [1, 4, 64, 128, 300]) {
      const { file } = exported({ ...maskedRows, chunkSize });
      const c = file.cases[0];
      expect(c.kind === "reinforce_pp" && c.params.chunk_size).toBe(128);
      expect(c.float32_pow_tables?.pow_vec).toHaveLength(128);
      // The same float32 returns for every C: it is the C = 128 scan that was written.
      const reference = exported(maskedRows).file.cases[0];
      expect(c.kind === "reinforce_pp" && c.chunked_float32).toEqual(
        reference.kind === "reinforce_pp" && reference.chunked_float32,
      );
    }
    expect(exported({ ...maskedRows, chunkSize: 64 }).file.cases[0].note).toContain(
      "scanned in chunks of 128 as slime's REINFORCE++ always is (the playground's C = 64 is not used)",
    );
  });

  it("writes torch's CPU float32 power tables, not the correctly rounded powers", () => {
    // 0.99^30 in float32: torch 0.7397005558, correctly rounded 0.7397006154 (issue 19).
    const { file } = exported({ ...preset("discounted", "dense", 128), gamma: 0.99 });
    const tables = file.cases[0].float32_pow_tables;
    expect(tables?.pow_vec[29]).toBe(Math.fround(0.7397005558013916));
    expect(tables?.M_row0[30]).toBe(Math.fround(0.7397005558013916));
    expect(Math.fround(Math.fround(0.99) ** 30)).toBe(Math.fround(0.7397006154060364));
  });

  it("writes inputs the reference rejects as an expect_error case, which the checker passes", async () => {
    const rows = [
      { length: 2, kl: [1, 1], lossMask: [1, 1] as (0 | 1)[] },
      { length: 2, lossMask: [0, 0] as (0 | 1)[] },
    ];
    const state: PlaygroundState = { ...maskedRows, data: { source: "inline", rows } };
    const file = parseCaseFile(exported(state).text, "error.json");
    expect(scanCasesOf(file)[0].expect_error).toBe("AssertionError: Sequence at index 1 is fully masked.");
    const [verdict] = await checkCases(file.cases, coreSolver("float64"), "float64");
    expect(verdict.passed).toBe(true);
  });

  it("passes the real scanlab command", () => {
    const dir = mkdtempSync(join(tmpdir(), "scanlab-export-"));
    try {
      const path = join(dir, "exported.json");
      writeFileSync(path, exported(maskedRows).text);
      const root = fileURLToPath(new URL("../../", import.meta.url));
      const run = spawnSync(process.execPath, ["--no-concurrent-recompilation", "bin/scanlab.mjs", "check", path], {
        cwd: root,
        encoding: "utf8",
      });
      expect(run.stderr).toBe("");
      expect(run.stdout.trimEnd().split("\n").at(-1)).toBe("1 passed, 0 failed");
      expect(run.status).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
