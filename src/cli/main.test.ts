import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { lastLine, runBin, scanlab } from "../testing/cliTestKit";
import { unseenCaseFile } from "../testing/unseenCases";

const publicCases = readFileSync(new URL("../../cases/public_cases.json", import.meta.url), "utf8");

describe("scanlab check", () => {
  for (const mode of ["float64", "float32", "slime-exact"]) {
    it(`passes every public case in --mode ${mode}`, async () => {
      const result = await scanlab(["check", "public.json", "--mode", mode], { "public.json": publicCases });
      expect(result.stderr).toBe("");
      expect(lastLine(result.stdout)).toBe("33 passed, 0 failed");
      expect(result.status).toBe(0);
      expect(result.stdout).toContain("rpp_varlen_holes_g1.0");
    });
  }

  it("replays slime-exact without float32_pow_tables with torch's CPU powers, bit for bit, and says so", async () => {
    const file = JSON.parse(publicCases);
    for (const c of file.cases) delete c.float32_pow_tables;
    const stripped = JSON.stringify(file);
    const result = await scanlab(["check", "-", "--mode", "slime-exact"], {}, stripped);
    expect(lastLine(result.stdout), result.stdout).toBe("33 passed, 0 failed");
    expect(result.stdout).toContain(
      "power tables: torch CPU float32 powers (AVX2, 1 thread), emulated for 33 cases without float32_pow_tables",
    );
    const json = JSON.parse((await scanlab(["check", "-", "--mode", "slime-exact", "--json"], {}, stripped)).stdout);
    expect(json.pow_tables).toEqual({
      from_file: 0,
      emulated: 33,
      emulation: "torch CPU float32 powers (AVX2, 1 thread), emulated",
    });
    const withTables = await scanlab(["check", "public.json", "--mode", "slime-exact"], { "public.json": publicCases });
    expect(withTables.stdout).toContain("power tables: the file's float32_pow_tables (33 cases)");
  });

  it("passes case files it has never seen, in every mode", async () => {
    const text = JSON.stringify(unseenCaseFile());
    for (const mode of ["float64", "float32", "slime-exact"]) {
      const result = await scanlab(["check", "-", "--mode", mode], {}, text);
      expect(lastLine(result.stdout), result.stdout).toBe("13 passed, 0 failed");
    }
    const fullyMasked = await scanlab(["check", "-"], {}, text);
    expect(fullyMasked.stdout).toContain("raised AssertionError: Sequence at index 1 is fully masked.");
  });

  for (const strategy of ["chunked", "two-level", "per-token"]) {
    it(`runs the tfjs engine on the cpu backend with --engine tfjs --strategy ${strategy}`, async () => {
      const result = await scanlab(["check", "public.json", "--engine", "tfjs", "--strategy", strategy], {
        "public.json": publicCases,
      });
      expect(result.stdout).toContain(`tfjs engine (cpu backend), ${strategy} strategy`);
      expect(lastLine(result.stdout)).toBe("33 passed, 0 failed");
      expect(result.status).toBe(0);
      const unseen = await scanlab(
        ["check", "-", "--engine", "tfjs", "--strategy", strategy],
        {},
        JSON.stringify(unseenCaseFile()),
      );
      expect(lastLine(unseen.stdout), unseen.stdout).toBe("13 passed, 0 failed");
    });
  }

  it("refuses a float64 or slime-exact mode for the float32 tfjs engine", async () => {
    const result = await scanlab(["check", "x.json", "--engine", "tfjs", "--mode", "float64"]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("--engine tfjs computes in float32: --mode must be float32");
  });

  it("matches the reference's own exceptions, and does not let an overflow hide them", async () => {
    const file = unseenCaseFile();
    const zeroChunk = structuredClone(file.cases.find((c) => c.name === "chunk_1"));
    if (zeroChunk?.kind !== "discounted") throw new Error("expected the chunk_1 case");
    Object.assign(zeroChunk, { name: "chunk_0", expect_error: "ZeroDivisionError: integer modulo by zero" });
    zeroChunk.params.chunk_size = 0;
    delete zeroChunk.float32_pow_tables;
    const overflow = structuredClone(file.cases.find((c) => c.name === "rpp_fully_masked"));
    if (overflow?.kind !== "reinforce_pp") throw new Error("expected the rpp_fully_masked case");
    // kl = 2^127 and kl_coef = 4 overflow float32 in sequence 0; slime still asserts on sequence 1.
    Object.assign(overflow, { name: "overflow_then_masked", params: { ...overflow.params, kl_coef: 4 } });
    overflow.inputs.kl[0][0] = 2 ** 127;
    const text = JSON.stringify({ ...file, cases: [zeroChunk, overflow] });
    for (const mode of ["float64", "float32", "slime-exact"]) {
      const result = await scanlab(["check", "-", "--mode", mode], {}, text);
      expect(lastLine(result.stdout), result.stdout).toBe("2 passed, 0 failed");
    }
  });

  it("a wrong answer on tiny values fails: loss masks do not count towards the tolerance's scale", async () => {
    const file = unseenCaseFile();
    const ragged = structuredClone(file.cases.find((c) => c.name === "rpp_ragged_16_holes"));
    if (ragged?.kind !== "reinforce_pp" || !ragged.expected) throw new Error("expected the ragged case");
    const tiny = (rows: number[][]) => rows.map((row) => row.map((x) => Math.fround(x * 1e-20)));
    ragged.inputs.kl = tiny(ragged.inputs.kl);
    ragged.inputs.rewards = ragged.inputs.rewards.map((x) => Math.fround(x * 1e-20));
    ragged.expected.returns = ragged.expected.returns.map((row) => row.map(() => 0)); // wrong by ~1e-20
    const result = await scanlab(["check", "-", "--mode", "float32"], {}, JSON.stringify({ ...file, cases: [ragged] }));
    expect(lastLine(result.stdout)).toBe("0 passed, 1 failed");
  });

  it("writes an overflowing error as text in --json, not as null", async () => {
    const file = JSON.parse(publicCases);
    file.cases = [file.cases[14]];
    file.cases[0].expected.returns[0] = 3e38;
    file.cases[0].inputs.rewards[0] = 3e38;
    file.cases[0].inputs.rewards[1] = 3e38;
    const result = await scanlab(["check", "-", "--mode", "float32", "--json"], {}, JSON.stringify(file));
    const report = JSON.parse(result.stdout);
    expect(report.cases[0]).toMatchObject({
      maxAbsError: "Infinity",
      passed: false,
      detail: expect.stringContaining("returns"),
    });
  });

  it("prints one JSON object with --json", async () => {
    const result = await scanlab(["check", "public.json", "--json"], { "public.json": publicCases });
    const report = JSON.parse(result.stdout);
    expect(report).toMatchObject({
      engine: "core",
      mode: "float64",
      passed: 33,
      failed: 0,
      summary: "33 passed, 0 failed",
    });
    expect(report.cases[0]).toMatchObject({
      name: "disc_d0.0_B1_T1_C128",
      kind: "discounted",
      shape: "1x1",
      passed: true,
    });
    for (const verdict of report.cases) expect(verdict.boundFraction).toBeLessThanOrEqual(1);
  });

  it("--json: a passing case never shows an error above its tolerance (every public case, every mode)", async () => {
    for (const mode of ["float64", "float32", "slime-exact"]) {
      const result = await scanlab(["check", "public.json", "--mode", mode, "--json"], { "public.json": publicCases });
      const report = JSON.parse(result.stdout);
      expect(report.passed).toBe(33);
      for (const v of report.cases) {
        expect(v.maxAbsError, `${mode} ${v.name}`).toBeLessThanOrEqual(v.tolerance);
        expect(v.maxAbsError, `${mode} ${v.name}`).toBeLessThanOrEqual(v.toleranceAtMaxError);
        expect(v.worst.error, `${mode} ${v.name}`).toBeLessThanOrEqual(v.worst.tolerance);
        expect(v.worst).toMatchObject({ element: expect.stringMatching(/^\w+(\[\d+\])+$/), fraction: v.boundFraction });
        expect(v.maxErrorElement).toMatch(/^\w+(\[\d+\])+$/);
      }
    }
  });

  it("shows each case's worst error as a fraction of its tolerance, to 2 significant digits", async () => {
    const result = await scanlab(["check", "public.json", "--mode", "float32"], { "public.json": publicCases });
    const [header, , ...rows] = result.stdout.split("\n").slice(2);
    expect(header).toMatch(/max abs error +tolerance there +worst err\/tol +at +result$/);
    const column = header.indexOf("worst err/tol");
    const fractions = rows.slice(0, 33).map((row) => row.slice(column).split(/ +/)[0]);
    expect(
      fractions.every((f) => /^(0|0\.0?\d\d|\d\.\d|\d\d|\d\.\de[-+]\d+)$/.test(f)),
      fractions.join(" "),
    ).toBe(true);
    expect(fractions.some((f) => f !== "0")).toBe(true);
  });

  it("fails with status 1 when a case is wrong, and when an expected error is not raised", async () => {
    const file = JSON.parse(publicCases);
    file.cases = file.cases.slice(0, 2);
    file.cases[0].expected.returns[0] += 1;
    file.cases[1].expect_error = "AssertionError: Sequence at index 0 is fully masked.";
    const result = await scanlab(["check", "-"], {}, JSON.stringify(file));
    expect(result.status).toBe(1);
    expect(lastLine(result.stdout)).toBe("0 passed, 2 failed");
    expect(result.stdout).toContain("expected AssertionError: Sequence at index 0 is fully masked., got no error");
  });

  it("names the field at fault in a malformed file, with status 2", async () => {
    const file = JSON.parse(publicCases);
    file.cases[4].params.discount = "0.99";
    file.cases[7].inputs.rewards.pop();
    const result = await scanlab(["check", "bad.json"], { "bad.json": JSON.stringify(file) });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("scanlab: bad.json: not a valid case file");
    expect(result.stderr).toContain('cases[4] ("disc_d0.0_B3_T1000_C128").params.discount:');
    expect(result.stderr).toContain(
      'cases[7] ("disc_d0.5_B3_T128_C128").inputs.rewards: expected 384 numbers (B·T = 3·128), got 383',
    );
  });

  it("explains unreadable files, bad JSON and bad flags", async () => {
    expect((await scanlab(["check", "missing.json"])).stderr).toContain("scanlab: cannot read missing.json: ENOENT");
    expect((await scanlab(["check", "-"], {}, "{ nope")).stderr).toContain("standard input: not valid JSON");
    const badMode = await scanlab(["check", "x.json", "--mode", "float16"]);
    expect(badMode.status).toBe(2);
    expect(badMode.stderr).toContain('--mode must be one of float64, float32, slime-exact; got "float16"');
    const fused = await scanlab(["check", "x.json", "--engine", "tfjs", "--strategy", "fused"]);
    expect(fused.status).toBe(2);
    expect(fused.stderr).toContain("--strategy fused runs only in the browser, on webgpu");
    expect((await scanlab(["check"])).stderr).toContain("check needs a case file");
    expect((await scanlab(["check", "--help"])).stdout).toContain("Usage: scanlab check FILE");
  });
});

describe("the scanlab binary", () => {
  it("runs from bin/ as `npx scanlab` does, with exit status 0 on the public cases", async () => {
    const cases = new URL("../../cases/public_cases.json", import.meta.url).pathname;
    const { status, stdout } = await runBin(["check", cases, "--mode", "slime-exact"]);
    expect(lastLine(stdout)).toBe("33 passed, 0 failed");
    expect(status).toBe(0);
  });
});

describe("scanlab help", () => {
  const COMMANDS = ["check", "cp-layout", "dump"];

  it("lists every command with a line each and how to get its help: --help, -h, help, and no arguments", async () => {
    for (const argv of [["--help"], ["-h"], ["help"]]) {
      const r = await scanlab(argv);
      expect(r.status, argv.join(" ")).toBe(0);
      expect(r.stderr).toBe("");
      for (const command of COMMANDS) expect(r.stdout).toMatch(new RegExp(`^  ${command}\\b.+\\w`, "m"));
      expect(r.stdout).toContain("scanlab COMMAND --help (or scanlab help COMMAND)");
      // A list, not every usage at once.
      expect(r.stdout).not.toContain("Usage: scanlab dump FILE");
    }
    const bare = await scanlab([]);
    expect(bare.status).toBe(2);
    expect(bare.stdout).toBe("");
    expect(bare.stderr).toMatch(/^scanlab: missing command\n\nUsage: scanlab COMMAND/);
    for (const command of COMMANDS) expect(bare.stderr).toMatch(new RegExp(`^  ${command}\\b`, "m"));
  });

  it("gives each command's own help, as COMMAND --help and as help COMMAND", async () => {
    const heads = {
      check: "Usage: scanlab check FILE",
      "cp-layout": "Usage: scanlab cp-layout",
      dump: "Usage: scanlab dump FILE",
    };
    for (const [command, head] of Object.entries(heads)) {
      for (const argv of [
        [command, "--help"],
        ["help", command],
      ]) {
        const r = await scanlab(argv);
        expect(r.status, argv.join(" ")).toBe(0);
        expect(r.stdout.startsWith(head), argv.join(" ")).toBe(true);
        // Only that command's usage.
        for (const [other, otherHead] of Object.entries(heads))
          if (other !== command) expect(r.stdout, argv.join(" ")).not.toContain(otherHead);
      }
    }
  });

  it("refuses help on a word that is no command, and gives a usage error the usage of its command", async () => {
    for (const word of ["nope", "constructor"]) {
      const r = await scanlab(["help", word]);
      expect(r.status).toBe(2);
      expect(r.stderr).toContain(`scanlab: help: unknown command "${word}"; the commands are check, cp-layout, dump`);
    }
    const unknown = await scanlab(["frobnicate"]);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toMatch(/^scanlab: unknown command: frobnicate\n\nUsage: scanlab COMMAND/);
    const check = await scanlab(["check", "x.json", "--mode", "float16"]);
    expect(check.stderr).toContain("Usage: scanlab check FILE");
    expect(check.stderr).not.toContain("Usage: scanlab dump FILE");
  });
});
