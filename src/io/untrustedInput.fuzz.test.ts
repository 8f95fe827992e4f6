import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { smallValidFile } from "../testing/caseFuzzKit";
import { CaseFileError, parseCaseFile } from "./caseFile";
import { importCaseFile, openCase } from "./caseImport";
import { importCsv, parseCsvTable } from "./csvImport";
import { IoError, type IoResult } from "./ioError";
import { importNpy, parseNpy } from "./npyImport";
import { writeNpy } from "./npyTestFile";
import { parsePlaygroundState } from "./playgroundState";
import { DEFAULT_PLAYGROUND_STATE } from "./presets";
import { decodeState, stateFromSearch } from "./shareLink";

/**
 * A second fuzzing pass over every parser, written by a tester who did not write them: inputs
 * built from the pieces a hostile or broken file is made of (the format's own punctuation, numbers
 * at the edges of float32, NaN spelled every way), rather than uniform random bytes, which mostly
 * fail on the first byte. Each parser must return a value or an IoError whose place names a row,
 * column, token, byte or field (or, for a whole-file fault, says what is wrong with the file),
 * and must never throw.
 */
const seed = Number(process.env.SCANLAB_FC_SEED ?? 20261130);
const runs = { seed, numRuns: 300 };

/** The places a rejection may name. An empty place is allowed only for whole-file faults, listed. */
const PLACE = /^(row \d+(, token \d+)?|line \d+(, column \d+)?|byte \d+|header( field \w+)?|cases\[\d+\] \(.*\))$/;
const WHOLE_FILE =
  /(import limit|has no rows of numbers|above the limit of \d+ cells|rows, but the batch has|not valid JSON|not a valid case file|holds no cases|invalid byte sequence|limit of a case file|holds no values)/;

function expectLocated<T>(result: IoResult<T>, source: string): void {
  if (result.ok) return;
  expect(result.error).toBeInstanceOf(IoError);
  const { where, message } = result.error;
  expect(message.startsWith(source)).toBe(true);
  if (where === "") expect(message).toMatch(WHOLE_FILE);
  else expect(where).toMatch(PLACE);
}

/** Runs a parser, turning anything thrown into a test failure that shows the input. */
function neverThrows<T>(parse: () => T): T {
  try {
    return parse();
  } catch (thrown) {
    throw new Error(`threw ${thrown instanceof Error ? `${thrown.name}: ${thrown.message}` : String(thrown)}`);
  }
}

const CSV_CELLS = [
  "0",
  "1",
  "-1",
  "0.5",
  "1e-45",
  "3.4028235e38",
  "3.5e38",
  "-1e39",
  "1e400",
  "NaN",
  "nan",
  "-inf",
  "Infinity",
  "+INF",
  "0x10",
  "1,5",
  "1_000",
  "",
  " ",
  "abc",
  "<b>x</b>",
  '"',
  '"1"',
  '""',
  "\t",
  "\u0000",
  "\uFEFF",
  "\u202E",
  "1e",
  ".",
  "-",
  "--1",
  "1..2",
];
const CSV_SEPARATORS = [",", ";", "\t", "\n", "\r\n", "\r", "\n\n"];

const csvText = fc
  .array(fc.tuple(fc.constantFrom(...CSV_CELLS), fc.constantFrom(...CSV_SEPARATORS)), { maxLength: 60 })
  .map((parts) => parts.map(([cell, sep]) => cell + sep).join(""));

describe("CSV built from the pieces of hostile tables", () => {
  it("gives rows or a rejection naming the line and column", () => {
    fc.assert(
      fc.property(
        csvText,
        fc.constantFrom("rewards", "kl", "lossMask", "values") as fc.Arbitrary<"rewards">,
        (t, l) => {
          expectLocated(
            neverThrows(() => parseCsvTable(t, "t.csv")),
            "t.csv",
          );
          const rows = neverThrows(() => importCsv(t, l, "t.csv"));
          expectLocated(rows, "t.csv");
          if (!rows.ok) return;
          const parsed = parsePlaygroundState({
            ...DEFAULT_PLAYGROUND_STATE,
            data: { source: "inline", rows: rows.value },
          });
          expect(parsed.ok ? "" : parsed.error.message).toBe("");
        },
      ),
      runs,
    );
  });

  it("a text cell is named by its line and column, counted from 1", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 6 }), (row, column) => {
        const lines = Array.from({ length: 6 }, (_, r) =>
          Array.from({ length: 6 }, (_, c) => (r + 1 === row && c + 1 === column ? "oops" : String(r + c))).join(","),
        );
        const result = importCsv(lines.join("\n"), "rewards", "t.csv");
        expect(result.ok).toBe(false);
        if (!result.ok) expect(result.error.where).toBe(`line ${row}, column ${column}`);
      }),
      { seed, numRuns: 40 },
    );
  });
});

/** A .npy header dict written from random pieces: the fields, their values, the padding. */
const headerPieces = fc.record({
  descr: fc.constantFrom("'<f4'", "'<f8'", "'>f4'", "'|u1'", "'<i8'", "'<f4", "<f4", "''", "'<f4' '<f8'"),
  fortran: fc.constantFrom("False", "True", "false", "0", "None"),
  shape: fc.constantFrom(
    "(3,)",
    "(2, 3)",
    "(6,)",
    "()",
    "(0,)",
    "(0, 5)",
    "(1, 2, 3)",
    "(-1,)",
    "(99999999999,)",
    "(1024, 1025)",
    "(3, )",
    "(3",
    "3",
    "(2,3,)",
    "(1e3,)",
  ),
  order: fc.constantFrom(0, 1, 2),
  extra: fc.constantFrom("", ", 'extra': 1", ", 'descr': '<f4'", "}", "{", "\u00e9"),
  pad: fc.constantFrom("", " ", "\n", "          \n", "\u0000"),
});

function npyWithHeader(
  h: { descr: string; fortran: string; shape: string; order: number; extra: string; pad: string },
  version: number,
  dataBytes: number,
): Uint8Array {
  const fields = [`'descr': ${h.descr}`, `'fortran_order': ${h.fortran}`, `'shape': ${h.shape}`];
  const ordered = [...fields.slice(h.order), ...fields.slice(0, h.order)];
  const header = new TextEncoder().encode(`{${ordered.join(", ")}${h.extra}, }${h.pad}`);
  const lengthBytes = version === 1 ? 2 : 4;
  const out = new Uint8Array(8 + lengthBytes + header.length + dataBytes);
  out.set([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, version, 0]);
  const view = new DataView(out.buffer);
  if (version === 1) view.setUint16(8, header.length, true);
  else view.setUint32(8, header.length, true);
  out.set(header, 8 + lengthBytes);
  // The data: floats with NaN, infinities and subnormals among them.
  for (let at = 8 + lengthBytes + header.length; at + 4 <= out.length; at += 4) {
    view.setFloat32(at, [0.5, Number.NaN, -1, Number.POSITIVE_INFINITY, 1e-40][at % 5], true);
  }
  return out;
}

describe(".npy built from the pieces of broken headers", () => {
  it("gives an array or a rejection naming the byte or the header field", () => {
    fc.assert(
      fc.property(headerPieces, fc.constantFrom(1, 2, 3, 4), fc.nat(64), (h, version, dataBytes) => {
        const bytes = npyWithHeader(h, version, dataBytes);
        expectLocated(
          neverThrows(() => parseNpy(bytes, "a.npy")),
          "a.npy",
        );
        for (const lane of ["rewards", "lossMask"] as const) {
          const rows = neverThrows(() => importNpy(bytes, lane, "a.npy"));
          expectLocated(rows, "a.npy");
        }
      }),
      runs,
    );
  });

  it("a wrong byte count is named with the byte where the data starts and both counts", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 8 }), fc.integer({ min: -3, max: 3 }), (n, off) => {
        const valid = writeNpy(
          Array.from({ length: n }, (_, i) => i),
          [n],
        );
        const changed =
          off >= 0 ? Uint8Array.from([...valid, ...new Array(off).fill(0)]) : valid.slice(0, valid.length + off);
        const result = parseNpy(changed, "a.npy");
        expect(result.ok).toBe(off === 0);
        if (!result.ok) {
          expect(result.error.where).toMatch(/^byte \d+$/);
          expect(result.error.message).toContain(`needs ${n * 4} data bytes, the file has ${n * 4 + off}`);
        }
      }),
      { seed, numRuns: 60 },
    );
  });
});

describe("case files with hostile structure", () => {
  const valid = smallValidFile();
  const text = JSON.stringify(valid);

  it("deep nesting, huge arrays and odd keys anywhere are refused with the path, never a stack overflow", () => {
    const deep = (depth: number, open: string, close: string, inner: string) =>
      open.repeat(depth) + inner + close.repeat(depth);
    const hostile = fc.oneof(
      fc.integer({ min: 1, max: 200_000 }).map((d) => deep(d, "[", "]", "0")),
      fc.integer({ min: 1, max: 50_000 }).map((d) => deep(d, '{"a":', "}", "0")),
      fc
        .tuple(
          fc.constantFrom("meta", "kind", "name", "params", "inputs", "shape", "expected", "lengths"),
          fc.integer({ min: 1, max: 20_000 }),
        )
        .map(([key, d]) => {
          // Spliced as text: JSON.stringify itself overflows the stack on such a tree.
          return text.replace(`"${key}":`, `"${key}":${deep(d, "[", "]", "1")},"x_${key}":`);
        }),
      fc
        .constantFrom("__proto__", "constructor", "prototype", "toString", "<img src=x onerror=alert(1)>")
        .map((k) => text.replace('"cases":', `"${k}":{"polluted":true},"cases":`)),
    );
    fc.assert(
      fc.property(hostile, (hostileText) => {
        try {
          parseCaseFile(hostileText, "deep.json");
        } catch (error) {
          if (!(error instanceof CaseFileError)) throw error;
        }
        const imported = neverThrows(() => importCaseFile(hostileText, "deep.json"));
        if (!imported.ok) expect(imported.error.message.startsWith("deep.json")).toBe(true);
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      }),
      { seed, numRuns: 60 },
    );
  });

  it("a case that parses always opens in the playground or says why, naming the case", () => {
    const numbers = fc.constantFrom(0, -0, 1, 0.5, 1e-45, 3.4e38, 1e-320, 2 ** 24, 2 ** 31, 4096, 4097, 65536);
    fc.assert(
      fc.property(
        fc.nat(2),
        fc.constantFrom("discount", "gamma", "lambd", "kl_coef", "chunk_size"),
        numbers,
        (i, k, x) => {
          const copy = JSON.parse(JSON.stringify(valid));
          if (k in copy.cases[i].params) copy.cases[i].params[k] = x;
          const imported = importCaseFile(JSON.stringify(copy), "p.json");
          if (!imported.ok) return;
          const opened = neverThrows(() => openCase(imported.value, i, DEFAULT_PLAYGROUND_STATE, "p.json"));
          expectLocated(opened, "p.json");
        },
      ),
      runs,
    );
  });
});

describe("links and saved sessions", () => {
  it("hostile query strings and stored texts give a valid state or a named field, never a throw", () => {
    const piece = fc.oneof(
      fc.constantFrom("s", "gamma", "chunk", "rows", "tokens", "preset", "seed", "ragged", "row", "metric", "backend"),
      fc.string({ maxLength: 6 }),
    );
    const value = fc.oneof(
      fc.constantFrom("NaN", "Infinity", "-1", "1e309", "0x10", "", "%", "%E0%A4%A", "<script>", "1".repeat(400)),
      fc.string({ maxLength: 12 }),
      fc.double().map(String),
    );
    fc.assert(
      fc.property(fc.array(fc.tuple(piece, value), { maxLength: 8 }), fc.boolean(), (pairs, encode) => {
        const search = `?${pairs.map(([k, v]) => `${k}=${encode ? encodeURIComponent(v) : v}`).join("&")}`;
        const result = neverThrows(() => stateFromSearch(search, DEFAULT_PLAYGROUND_STATE));
        expect(parsePlaygroundState(result.state).ok).toBe(true);
        for (const problem of result.problems) expect(problem.message).toMatch(/^Address: \w+(=|: appears \d+ times)/);
        const stored = neverThrows(() => decodeState(pairs.map(([k, v]) => k + v).join(""), "Saved session"));
        if (!stored.ok) expect(stored.error.message.startsWith("Saved session")).toBe(true);
      }),
      runs,
    );
  });
});
