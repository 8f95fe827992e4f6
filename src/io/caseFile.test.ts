import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { unseenCaseFile } from "../testing/unseenCases";
import { buildCase, buildCaseFile } from "./caseBuilder";
import { CaseFileError, parseCaseFile } from "./caseFile";
import type { ScanCase } from "./caseSchema";
import { isUnprintable } from "./printable";

const publicText = readFileSync(new URL("../../cases/public_cases.json", import.meta.url), "utf8");
const conventionsText = readFileSync(new URL("../../cases/conventions_public.json", import.meta.url), "utf8");

function messageOf(json: unknown): string {
  try {
    parseCaseFile(typeof json === "string" || json instanceof Uint8Array ? json : JSON.stringify(json), "f.json");
  } catch (error) {
    expect(error).toBeInstanceOf(CaseFileError);
    return (error as Error).message;
  }
  throw new Error("expected the file to be rejected");
}

describe("case files are validated field by field", () => {
  it("accepts the public files and the files the builder writes: they use only known fields", () => {
    expect(parseCaseFile(publicText, "public").cases).toHaveLength(33);
    expect(parseCaseFile(conventionsText, "conventions").cases).toHaveLength(12);
    expect(parseCaseFile(JSON.stringify(unseenCaseFile()), "unseen").cases).toHaveLength(13);
  });

  it("rejects text that is not JSON, with the parser's position", () => {
    expect(messageOf('{ "meta": ')).toMatch(/^f\.json: not valid JSON \(/);
  });

  it("names missing and mistyped fields with the case's name", () => {
    const file = JSON.parse(publicText);
    delete file.cases[30].inputs.loss_masks;
    file.cases[31].lengths[0] = -1;
    const message = messageOf(file);
    expect(message).toContain('cases[30] ("rpp_slime_unit_test_example").inputs.loss_masks:');
    expect(message).toContain('cases[31] ("rpp_varlen_holes_g0.99").lengths[0]:');
  });

  it("checks ragged lengths, power tables and duplicate names", () => {
    const file = JSON.parse(publicText);
    file.cases[32].inputs.kl[2].push(0);
    file.cases[0].float32_pow_tables.pow_vec.pop();
    file.cases[1].name = file.cases[2].name;
    const message = messageOf(file);
    expect(message).toContain(
      'cases[32] ("rpp_varlen_holes_g1.0").inputs.kl[2]: expected 128 numbers (lengths[2]), got 129',
    );
    expect(message).toContain("float32_pow_tables.pow_vec: expected 128 numbers (chunk_size = 128), got 127");
    expect(message).toContain("duplicate case name (also cases[1])");
  });

  it("says which kinds it checks when it meets another", () => {
    const message = messageOf({ meta: { schema_version: 1 }, cases: [{ name: "x", kind: "policy_gradient" }] });
    expect(message).toContain('cases[0] ("x").kind: unsupported case kind "policy_gradient"');
  });

  it("rejects another schema version", () => {
    expect(messageOf({ meta: { schema_version: 2 }, cases: [] })).toContain("meta.schema_version");
  });
});

/** A small valid file written by the case builder: one discounted case of B rows and T tokens. */
function discountedFile(rows: number, cols: number) {
  const data = Float64Array.from({ length: rows * cols }, (_, i) => (i % 7) - 3);
  const c = buildCase({ kind: "discounted", rewards: { rows, cols, data }, discount: 0.9, chunkSize: 4 }, "small");
  return buildCaseFile([c]);
}

/** A REINFORCE++ case written directly (the builder would run the scan on every row, too slow here). */
function raggedFile(lengths: number[]) {
  const rows = (value: number) => lengths.map((L) => new Array(L).fill(value));
  const recorded = () => ({ returns: rows(0), token_level_rewards: rows(0) });
  const c = {
    name: "ragged",
    kind: "reinforce_pp",
    lengths,
    params: { kl_coef: 0.1, gamma: 0.9, chunk_size: 128 },
    inputs: { rewards: lengths.map(() => 1), kl: rows(0.5), loss_masks: rows(1) },
    expected: recorded(),
    chunked_float32: recorded(),
  };
  return { meta: { schema_version: 1 }, cases: [c] };
}

describe("hostile case files get a message, never a crash or a hang", () => {
  it("lists the first problems of 130,000 invalid numbers and counts the rest (zod overflowed the stack)", () => {
    const file = discountedFile(1, 1);
    Object.assign(file.cases[0].inputs, { rewards: new Array(130_000).fill("x") });
    const message = messageOf(file);
    expect(message).toContain('cases[0] ("small").inputs.rewards[0]: expected a number, got the string "x"');
    expect(message).toContain(".inputs.rewards[9]:");
    expect(message).not.toContain(".inputs.rewards[10]:");
    expect(message).toContain("… and 129,990 more problems");
  });

  it("counts bad rows of ragged fields, bad lengths and many bad cases without overflowing", () => {
    const ragged = raggedFile([]);
    const c = ragged.cases[0];
    Object.assign(c.inputs, { kl: new Array(130_000).fill(null) });
    Object.assign(c, { lengths: new Array(130_000).fill(-1) });
    const raggedMessage = messageOf(ragged);
    expect(raggedMessage).toContain('cases[0] ("ragged").lengths[0]: expected a non-negative integer, got -1');
    expect(raggedMessage).toContain("… and 259,990 more problems");

    const many = { meta: { schema_version: 1 }, cases: new Array(130_000).fill(5) };
    const manyMessage = messageOf(many);
    expect(manyMessage).toContain("cases[0]: expected a case (an object), got 5");
    expect(manyMessage).toContain("… and 129,990 more problems");
  });

  it("refuses shapes beyond the limits before any loop over them", () => {
    const empty = { rewards: [] };
    const withShape = (shape: number[], chunkSize = 4) => {
      const c = discountedFile(0, 0).cases[0];
      return {
        ...discountedFile(0, 0),
        cases: [{ ...c, shape, params: { discount: 0.5, chunk_size: chunkSize }, inputs: empty }],
      };
    };
    // 10^12 rows, tokens or elements and more: a loop over any of them before the refusal would not
    // end while the tests run, so the refusal is proven to come first without timing it.
    expect(messageOf(withShape([1e12, 0]))).toContain(
      'cases[0] ("small").shape[0]: 1,000,000,000,000 rows (sequences) is above the limit of 65,536 (2^16)',
    );
    expect(messageOf(withShape([0, 2 ** 50]))).toContain(
      "shape[1]: 1,125,899,906,842,624 tokens in a row is above the limit of 16,777,216 (2^24)",
    );
    expect(messageOf(withShape([2 ** 16, 2 ** 24]))).toContain(
      "shape: B·T = 65,536·16,777,216 = 1,099,511,627,776 elements is above the limit of 134,217,728 (2^27)",
    );
  });

  it("refuses a chunk size whose local scans would take hours, naming the work and the limit", () => {
    const file = discountedFile(16, 1024);
    const c = file.cases[0] as Extract<ScanCase, { kind: "discounted" }>;
    c.params.chunk_size = 2 ** 20;
    delete c.float32_pow_tables;
    expect(messageOf(file)).toContain(
      "params.chunk_size: chunk_size 1,048,576 over 16 rows of 1,024 tokens takes 2^34 multiply-adds in the local scans",
    );
    expect(messageOf(file)).toContain("above the limit of 2^32");
  });

  it("limits a ragged batch by its padded size: many empty sequences next to one long one", () => {
    const lengths = Array.from({ length: 65_536 }, (_, i) => (i === 0 ? 4096 : 0));
    expect(messageOf(raggedFile(lengths))).toContain(
      'cases[0] ("ragged").lengths: 65,536 sequences padded to 4,096 tokens = 268,435,456 elements is above the limit',
    );
    const long = raggedFile([0]);
    long.cases[0].lengths = [2 ** 25];
    expect(messageOf(long)).toContain("lengths[0]: 33,554,432 tokens in a row is above the limit of 16,777,216 (2^24)");
  });

  it("reports every unknown field with its path, at every level", () => {
    const file = JSON.parse(publicText);
    file.cases[3].tolerence = { float64: 1, float32: 1 };
    file.cases[3].params.chunksize = 4;
    file.meta.schema_versoin = 1;
    file.extra = true;
    const message = messageOf(file);
    expect(message).toContain('cases[3] ("disc_d0.0_B3_T129_C128").tolerence: unknown field');
    expect(message).toContain('cases[3] ("disc_d0.0_B3_T129_C128").params.chunksize: unknown field');
    expect(message).toContain("meta.schema_versoin: unknown field");
    expect(message).toContain("  extra: unknown field");
  });

  it("says where invalid UTF-8 is, by byte offset and line, instead of replacing it", () => {
    const text = JSON.stringify(discountedFile(1, 2), null, 1);
    const bytes = new TextEncoder().encode(text);
    const offset = text.indexOf('"small"') + 1;
    bytes[offset] = 0xff;
    const line = new TextDecoder().decode(bytes.subarray(0, offset)).split("\n").length;
    expect(messageOf(bytes)).toBe(
      `f.json: not valid UTF-8: invalid byte sequence at byte offset ${offset} (line ${line}): 0xff 0x6d 0x61 0x6c`,
    );
    const withBom = new Uint8Array([
      0xef,
      0xbb,
      0xbf,
      ...new TextEncoder().encode(JSON.stringify(discountedFile(1, 2))),
    ]);
    expect(parseCaseFile(withBom, "bom.json").cases).toHaveLength(1);
  });

  it("escapes control characters of names, keys and JSON excerpts in its messages", () => {
    const file = discountedFile(1, 2);
    file.cases[0].name = "x\u001b[2J\u009b\u202e";
    (file.cases[0] as Record<string, unknown>)["bad\rkey"] = 1;
    const message = messageOf(file);
    expect(message).toContain('cases[0] ("x\\u001b[2J\\u009b\\u202e")["bad\\rkey"]: unknown field');
    expect(messageOf('{"meta": \u001b[2J}')).toContain("\\u001b[2J");
    for (const m of [message, messageOf('{"meta": \u001b[2J}')]) {
      expect([...m].filter((ch) => ch !== "\n" && isUnprintable(ch.charCodeAt(0)))).toEqual([]);
    }
  });
});
