import fc from "fast-check";
import LZString from "lz-string";
import { describe, expect, it } from "vitest";
import { byteEdits, mutateBytes } from "../testing/byteFuzzKit";
import { inlineState } from "../testing/playgroundStateKit";
import { exportCase } from "./caseExport";
import { importCaseFile, openCase } from "./caseImport";
import { importCsv, importCsvLane } from "./csvImport";
import { IoError } from "./ioError";
import { importNpy, parseNpy } from "./npyImport";
import { writeNpy } from "./npyTestFile";
import { materializeRows } from "./playgroundProblem";
import { type PlaygroundRow, type PlaygroundState, parsePlaygroundState } from "./playgroundState";
import { BASE_SETTINGS, DEFAULT_PLAYGROUND_STATE, EXAMPLES, exampleById } from "./presets";
import { decodeState, encodeState, stateFromSearch } from "./shareLink";

// A fixed seed keeps CI reproducible; SCANLAB_FC_SEED=<n> explores other draws locally.
const seed = Number(process.env.SCANLAB_FC_SEED ?? 20261129);
const runs = { seed, numRuns: 150 };

type Outcome = { ok: true } | { ok: false; error: unknown };

/** Every parser's contract: a value, or an IoError with a message; never anything thrown. */
function expectOutcome(outcome: Outcome): void {
  if (outcome.ok) return;
  expect(outcome.error).toBeInstanceOf(IoError);
  expect((outcome.error as Error).message.length).toBeGreaterThan(0);
}

/** Imported rows must always make a valid playground state. */
function expectValidRows(rows: PlaygroundRow[]): void {
  const parsed = parsePlaygroundState({ ...BASE_SETTINGS, data: { source: "inline", rows } });
  expect(parsed.ok ? "" : parsed.error.message).toBe("");
}

const edits = byteEdits(6);

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
const bytesOf = (s: string) => new TextEncoder().encode(s);
const someBytes = fc.uint8Array({ maxLength: 300 });

describe("every parser survives hostile input", () => {
  it("CSV: random text and mutated tables give rows or a located error", () => {
    const valid = bytesOf("t0,t1,t2\n0.5,-1,2e-3\n1,2,\n\n3,4,5\n");
    const batch = materializeRows({
      ...DEFAULT_PLAYGROUND_STATE,
      data: { ...DEFAULT_PLAYGROUND_STATE.data, tokens: 3 },
    } as PlaygroundState);
    fc.assert(
      fc.property(
        fc.oneof(
          someBytes,
          edits.map((e) => mutateBytes(valid, e)),
        ),
        fc.constantFrom("rewards", "lossMask", "kl") as fc.Arbitrary<"rewards" | "lossMask" | "kl">,
        (bytes, lane) => {
          const result = importCsv(text(bytes), lane, "fuzz.csv");
          expectOutcome(result);
          if (result.ok) expectValidRows(result.value);
          expectOutcome(importCsvLane(text(bytes), "values", batch, "fuzz.csv"));
        },
      ),
      runs,
    );
  });

  it(".npy: random bytes and mutated files give an array or an error naming a byte or field", () => {
    const valid = writeNpy([0.5, -1, 2, 1, 0, 1], [2, 3]);
    const valid64 = writeNpy([0.5, 1e-30, 3], [3], { descr: "<f8", version: 2 });
    fc.assert(
      fc.property(
        fc.oneof(
          someBytes,
          edits.map((e) => mutateBytes(valid, e)),
          edits.map((e) => mutateBytes(valid64, e)),
        ),
        (bytes) => {
          expectOutcome(parseNpy(bytes, "fuzz.npy"));
          const rows = importNpy(bytes, "rewards", "fuzz.npy");
          expectOutcome(rows);
          if (rows.ok) expectValidRows(rows.value);
          expectOutcome(importNpy(bytes, "lossMask", "fuzz.npy"));
        },
      ),
      runs,
    );
  });

  it("share links: random text, mutated links and random JSON give a valid state or a named field", () => {
    const drawn = inlineState([
      {
        length: 12,
        rewards: Array.from({ length: 12 }, (_, i) => Math.fround(Math.sin(i))),
        lossMask: [1, 0, 1, 1, 0, 1, 0, 1, 1, 1, 0, 1],
        kl: new Array(12).fill(0),
      },
    ]);
    const tokens = [encodeState(drawn), encodeState(EXAMPLES[3].state), encodeState(DEFAULT_PLAYGROUND_STATE)];
    const mutatedLink = fc
      .tuple(fc.constantFrom(...tokens), edits)
      .map(([token, e]) => text(mutateBytes(bytesOf(token), e)));
    const randomJson = fc
      .jsonValue({ maxDepth: 4 })
      .map((json) => LZString.compressToEncodedURIComponent(JSON.stringify(json)));
    const patchedJson = fc
      .tuple(
        fc.constantFrom("gamma", "data", "estimator", "chunkSize", "v", "selectedRow"),
        fc.jsonValue({ maxDepth: 3 }),
      )
      .map(([key, value]) => LZString.compressToEncodedURIComponent(JSON.stringify({ v: 1, ...drawn, [key]: value })));
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 200 }), mutatedLink, randomJson, patchedJson), (token) => {
        const decoded = decodeState(token);
        expectOutcome(decoded);
        if (decoded.ok) expect(parsePlaygroundState(decoded.state).ok).toBe(true);
        const fromSearch = stateFromSearch(
          `?s=${encodeURIComponent(token)}&gamma=${encodeURIComponent(token.slice(0, 8))}`,
          DEFAULT_PLAYGROUND_STATE,
        );
        expect(parsePlaygroundState(fromSearch.state).ok).toBe(true);
      }),
      runs,
    );
  });

  it("case files: random bytes and mutated files give cases that open or an error naming the case", () => {
    // Small cases (one REINFORCE++, one GAE, one discounted) keep each draw fast.
    const cases = ["kl-on-tool-tokens-fixed", "reward-at-eos", "padding-summed"].map((id) => {
      const exported = exportCase(exampleById(id)?.state ?? DEFAULT_PLAYGROUND_STATE, id);
      if (!exported.ok) throw exported.error;
      return exported.value.file.cases[0];
    });
    const file = { meta: { schema_version: 1 }, cases };
    const valid = JSON.stringify(file);
    // Structural mutations: a random JSON value at a random field of a case.
    const fields = ["params", "inputs", "lengths", "shape", "kind", "expected", "name", "expect_error"];
    const patched = fc
      .tuple(fc.nat(1), fc.constantFrom(...fields), fc.jsonValue({ maxDepth: 3 }))
      .map(([i, key, value]) => {
        const copy = JSON.parse(valid);
        copy.cases[i][key] = value;
        return bytesOf(JSON.stringify(copy));
      });
    const scaled = fc.tuple(fc.nat(2), fc.double({ noNaN: true })).map(([i, x]) => {
      const copy = JSON.parse(valid);
      const params = copy.cases[i].params;
      for (const key of Object.keys(params)) params[key] = x;
      return bytesOf(JSON.stringify(copy));
    });
    fc.assert(
      fc.property(
        fc.oneof(
          someBytes,
          edits.map((e) => mutateBytes(bytesOf(valid), e)),
          patched,
          scaled,
        ),
        (bytes) => {
          const imported = importCaseFile(bytes, "fuzz.json");
          expectOutcome(imported);
          if (!imported.ok) return;
          for (const entry of imported.value.cases) {
            const opened = openCase(imported.value, entry.index, DEFAULT_PLAYGROUND_STATE, "fuzz.json");
            expectOutcome(opened);
            if (opened.ok) expect(parsePlaygroundState(opened.value.state).ok).toBe(true);
          }
        },
      ),
      runs,
    );
  });
});
