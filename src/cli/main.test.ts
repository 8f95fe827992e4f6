import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { unseenCaseFile } from "../testing/unseenCases";
import { type CliIO, main } from "./main";

const publicCases = readFileSync(new URL("../../cases/public_cases.json", import.meta.url), "utf8");

/** Runs the command in-process against in-memory files. */
async function scanlab(argv: string[], files: Record<string, string> = {}, stdin = "") {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIO = {
    stdout: (text) => out.push(text),
    stderr: (text) => err.push(text),
    readFile: async (path) => {
      if (path in files) return files[path];
      throw new Error(`ENOENT: no such file or directory, open '${path}'`);
    },
    readStdin: async () => stdin,
  };
  const status = await main(argv, io);
  return { status, stdout: out.join("\n"), stderr: err.join("\n") };
}

const lastLine = (text: string) => text.trimEnd().split("\n").at(-1);

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

  it("passes case files it has never seen, in every mode", async () => {
    const text = JSON.stringify(unseenCaseFile());
    for (const mode of ["float64", "float32", "slime-exact"]) {
      const result = await scanlab(["check", "-", "--mode", mode], {}, text);
      expect(lastLine(result.stdout), result.stdout).toBe("12 passed, 0 failed");
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
      expect(lastLine(unseen.stdout), unseen.stdout).toBe("12 passed, 0 failed");
    });
  }

  it("refuses a float64 or slime-exact mode for the float32 tfjs engine", async () => {
    const result = await scanlab(["check", "x.json", "--engine", "tfjs", "--mode", "float64"]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("--engine tfjs computes in float32: --mode must be float32");
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
    expect((await scanlab(["check"])).stderr).toContain("check needs a case file");
    expect((await scanlab(["--help"])).stdout).toContain("Usage: scanlab check FILE");
  });
});

describe("the scanlab binary", () => {
  it("runs from bin/ as `npx scanlab` does, with exit status 0 on the public cases", async () => {
    const { execFile } = await import("node:child_process");
    const bin = new URL("../../bin/scanlab.mjs", import.meta.url).pathname;
    const cases = new URL("../../cases/public_cases.json", import.meta.url).pathname;
    const { code, stdout } = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
      const child = execFile(process.execPath, [bin, "check", cases, "--mode", "slime-exact"], (_, out) =>
        resolve({ code: child.exitCode, stdout: out }),
      );
    });
    expect(lastLine(stdout)).toBe("33 passed, 0 failed");
    expect(code).toBe(0);
  });
});
