import { mkdtempSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildCase, buildCaseFile } from "../io/caseBuilder";
import type { DiscountedCase } from "../io/caseSchema";
import { isUnprintable } from "../io/printable";
import { lastLine, runBin, scanlab } from "../testing/cliTestKit";

/** A small valid file from the case builder: one discounted case per name. */
function smallFile(...names: string[]) {
  const data = Float64Array.of(1, -2, 3, 0.5, 4, -1);
  const problem = { kind: "discounted", rewards: { rows: 2, cols: 3, data }, discount: 0.9, chunkSize: 2 } as const;
  const cases = names.map((name) => buildCase(problem, name) as DiscountedCase);
  return { ...buildCaseFile(cases), cases };
}

const text = (value: unknown) => JSON.stringify(value);
const hasStackTrace = (output: string) => /\n\s+at .+[:(]/.test(output);
const raw = (output: string) => [...output].filter((ch) => ch !== "\n" && isUnprintable(ch.charCodeAt(0)));

describe("scanlab check on hostile input: a message and status 2, never a crash, a hang or a false success", () => {
  it("reports 130,000 invalid numbers in one array by the first few and the count (was a RangeError)", async () => {
    const file = smallFile("a");
    Object.assign(file.cases[0].inputs, { rewards: new Array(130_000).fill("x") });
    const result = await scanlab(["check", "-"], {}, text(file));
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('cases[0] ("a").inputs.rewards[0]: expected a number, got the string "x"');
    expect(lastLine(result.stderr)).toBe("  … and 129,990 more problems");
    expect(hasStackTrace(result.stderr)).toBe(false);
  });

  it("refuses the 200-byte file with shape [1e12, 0] at once (it ran for hours)", async () => {
    const file = smallFile("huge");
    Object.assign(file.cases[0], { shape: [1e12, 0], inputs: { rewards: [] } });
    Object.assign(file.cases[0], { expected: { returns: [] }, chunked_float32: { returns: [] } });
    delete file.cases[0].float32_pow_tables;
    // Refused before any row is allocated: the test's own timeout is what a stall would hit.
    const result = await scanlab(["check", "-"], {}, text(file));
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("shape[0]: 1,000,000,000,000 rows (sequences) is above the limit of 65,536 (2^16)");
  });

  it("escapes a name that would clear the screen and forge a pass row, in the table and in --json", async () => {
    const forged = "x\u001b[2J\u001b[Hforged  discounted  2x3  0  pass\r\n\u009b2J\u202e";
    const file = smallFile(forged);
    file.cases[0].expected = { returns: file.cases[0].expected?.returns.map((x) => x + 1) ?? [] };
    const result = await scanlab(["check", "-"], {}, text(file));
    expect(result.status).toBe(1);
    expect(raw(result.stdout)).toEqual([]);
    expect(result.stdout.split("\n").filter((line) => /\bpass$/.test(line))).toEqual([]);
    expect(result.stdout).toContain("x\\u001b[2J\\u001b[Hforged  discounted  2x3  0  pass\\r\\n\\u009b2J\\u202e");
    const json = await scanlab(["check", "-", "--json"], {}, text(file));
    expect(raw(json.stdout)).toEqual([]);
    expect(JSON.parse(json.stdout).cases[0].name).toBe(forged);
  });

  it("escapes control characters in error messages: names, file paths, JSON excerpts, flags", async () => {
    const file = smallFile("bad\u001b]0;title\u0007");
    Object.assign(file.cases[0], { tolerence: 1 });
    const messages = [
      (await scanlab(["check", "-"], {}, text(file))).stderr,
      (await scanlab(["check", "-"], {}, '{"meta": \u001b[2J}')).stderr,
      (await scanlab(["check", "\u001b[2Jmissing.json"])).stderr,
      (await scanlab(["\u001b[2J"])).stderr,
    ];
    for (const message of messages) expect(raw(message)).toEqual([]);
    expect(messages[0]).toContain('cases[0] ("bad\\u001b]0;title\\u0007").tolerence: unknown field');
    expect(messages[2]).toContain("cannot read \\u001b[2Jmissing.json");
  });

  it("says 'no cases' with status 2 for an empty file, and for a file with nothing to compare", async () => {
    const empty = await scanlab(["check", "empty.json"], { "empty.json": text(buildCaseFile([])) });
    expect(empty).toEqual({ status: 2, stdout: "", stderr: "scanlab: no cases in empty.json: nothing to check" });
    const file = smallFile("t0");
    Object.assign(file.cases[0], { shape: [2, 0], inputs: { rewards: [] } });
    Object.assign(file.cases[0], { expected: { returns: [] }, chunked_float32: { returns: [] } });
    const nothing = await scanlab(["check", "-", "--json"], {}, text(file));
    expect(nothing.status).toBe(2);
    expect(nothing.stderr).toBe(
      "scanlab: nothing to check in standard input: every case has 0 tokens and expects no error",
    );
  });

  it("says where invalid UTF-8 is instead of replacing it", async () => {
    const bytes = new TextEncoder().encode(text(smallFile("né")));
    const offset = bytes.indexOf(0xc3);
    bytes[offset + 1] = 0x22; // é cut: the name's closing quote follows a lone lead byte
    const result = await scanlab(["check", "x.json"], { "x.json": bytes });
    expect(result.status).toBe(2);
    expect(result.stderr).toBe(
      `scanlab: x.json: not valid UTF-8: invalid byte sequence at byte offset ${offset} (line 1): 0xc3 0x22 0x22 0x2c`,
    );
  });

  it("makes a repeated flag a usage error instead of keeping the last one", async () => {
    const mode = await scanlab(["check", "x.json", "--mode", "float32", "--mode=float64"]);
    expect(mode.status).toBe(2);
    expect(mode.stderr).toContain("scanlab: --mode is given more than once (float32, then float64); give it once");
    expect((await scanlab(["check", "x.json", "--json", "--json"])).stderr).toContain("--json is given more than once");
  });

  it("rejects a misspelled field instead of falling back to the default", async () => {
    const file = smallFile("a", "b", "c", "d");
    Object.assign(file.cases[3], { tolerence: { float64: 1, float32: 1 } });
    const result = await scanlab(["check", "-"], {}, text(file));
    expect(result.status).toBe(2);
    expect(result.stderr).toBe(
      'scanlab: standard input: not a valid case file\n  cases[3] ("d").tolerence: unknown field',
    );
  });

  it("fails a float32 run whose input overflows float32, naming it; float64 runs the case", async () => {
    const file = smallFile("big");
    file.cases[0].inputs.rewards[3] = 1e308;
    const float32 = await scanlab(["check", "-", "--mode", "float32"], {}, text(file));
    expect(float32.status).toBe(1);
    expect(float32.stdout).toContain(
      "    inputs.rewards[3] (row 1, token 0): 1e+308 overflows float32 (largest finite 3.4028235e+38)",
    );
    const float64 = await scanlab(["check", "-"], {}, text(file));
    expect(float64.stdout).not.toContain("overflows");
  });

  it("turns an unexpected error into one line and status 2, marked as a bug", async () => {
    const result = await scanlab(["check", "-"], {}, text(smallFile("a")), {
      stdout: () => {
        throw new TypeError("boom");
      },
    });
    expect(result).toEqual({
      status: 2,
      stdout: "",
      stderr: "scanlab: internal error (a bug in scanlab, please report it): TypeError: boom",
    });
  });
});

describe("the scanlab binary keeps its input bounded", () => {
  const dir = mkdtempSync(join(tmpdir(), "scanlab-cli-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("stops reading endless standard input at 256 MiB (`cat /dev/zero | scanlab check -` grew to 19 GB)", async () => {
    const result = await runBin(["check", "-"], { endlessStdin: true });
    expect(result).toEqual({
      status: 2,
      stdout: "",
      stderr: "scanlab: standard input is larger than the 256 MiB limit of a case file\n",
    });
  }, 60_000);

  it("refuses a file over the limit by its size, without reading it (was `Invalid string length`)", async () => {
    const big = join(dir, "big.json");
    writeFileSync(big, "");
    truncateSync(big, 600 * 2 ** 20); // sparse: no disk used
    const result = await runBin(["check", big]);
    expect(result.status).toBe(2);
    expect(result.stderr).toBe(`scanlab: ${big} is 600.0 MiB, above the 256 MiB limit of a case file\n`);
  }, 60_000);
});
