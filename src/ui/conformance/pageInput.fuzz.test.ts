import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readCases } from "../../compute/conformance/readCases";
import { linkedSource } from "../../compute/player/playerLink";
import { importFile } from "../../compute/playground/importFile";
import { startupState } from "../../compute/playground/persistence";
import { writeNpy } from "../../io/npyTestFile";
import { materializeRows } from "../../io/playgroundProblem";
import { parsePlaygroundState } from "../../io/playgroundState";
import { DEFAULT_PLAYGROUND_STATE, FIRST_VISIT_STATE } from "../../io/presets";
import { printable } from "../../io/printable";
import { encodeState } from "../../io/shareLink";
import { byteEdits, mutateBytes } from "../../testing/byteFuzzKit";
import { smallValidFile } from "../../testing/caseFuzzKit";
import { parseUrlState, VIEWS } from "../urlState";

/**
 * What every view does with what a user hands it (a file, an address, a saved session), fuzzed
 * at the boundary the page calls: the answer is a state or a message naming the source, and
 * nothing else is ever thrown. (The conformance view's own reader sits beside this file; the
 * playground's and the player's readers are fuzzed here too, from the tester's side.)
 */
const seed = Number(process.env.SCANLAB_FC_SEED ?? 20261130);
const runs = { seed, numRuns: 200 };

const edits = byteEdits(5);

const bytesOf = (s: string) => new TextEncoder().encode(s);
const caseBytes = bytesOf(JSON.stringify(smallValidFile()));
const csvBytes = bytesOf("a,b,c\n1,2,3\n4,5,\n");
const npyBytes = writeNpy([1, 2, 3, 4, 5, 6], [2, 3]);

/** Files as a user drops them: any name (HTML and control characters included), valid or damaged bytes. */
const names = fc.oneof(
  fc.constantFrom(
    "cases.json",
    "r.csv",
    "r.npy",
    "dump",
    "<img src=x onerror=alert(1)>.json",
    "<b>bold</b>.csv",
    "\u202Egpj.npy",
    "a\nb.json",
    "",
  ),
  fc.string({ maxLength: 20 }),
);
const fileBytes = fc.oneof(
  fc.uint8Array({ maxLength: 200 }),
  edits.map((e) => mutateBytes(caseBytes, e)),
  edits.map((e) => mutateBytes(csvBytes, e)),
  edits.map((e) => mutateBytes(npyBytes, e)),
  fc.constantFrom(caseBytes, csvBytes, npyBytes, new Uint8Array(0)),
);

describe("the page's readers, fuzzed where the views call them", () => {
  it("conformance: a file gives cases, or an Error whose message starts with the file's name", () => {
    fc.assert(
      fc.property(fileBytes, (bytes) => {
        try {
          readCases(bytes, "f.json");
        } catch (thrown) {
          expect(thrown).toBeInstanceOf(Error);
          expect((thrown as Error).message.startsWith("f.json")).toBe(true);
        }
      }),
      runs,
    );
  });

  it("playground: any file under any name gives a valid state or an IoError naming the file", () => {
    const rows = materializeRows(DEFAULT_PLAYGROUND_STATE);
    fc.assert(
      fc.property(names, fileBytes, fc.constantFrom("new", "current") as fc.Arbitrary<"new">, (name, bytes, into) => {
        const result = importFile(name, bytes, DEFAULT_PLAYGROUND_STATE, rows, { lane: "auto", into });
        if (result.ok) {
          const value = result.value;
          if (value.kind === "question") expect(value.choices.length).toBeGreaterThan(1);
          else expect(parsePlaygroundState(value.kind === "state" ? value.state : value.opened.state).ok).toBe(true);
        } else {
          expect(result.error.message.length).toBeGreaterThan(0);
          // Case-file messages escape control characters in the name (printable), the others quote it as is.
          const { message } = result.error;
          if (name) expect(message.startsWith(name) || message.startsWith(printable(name))).toBe(true);
        }
      }),
      runs,
    );
  });

  it("addresses: any query string gives a view and settings, with a line for each ignored parameter", () => {
    const link = encodeState(DEFAULT_PLAYGROUND_STATE);
    const key = fc.constantFrom("view", "backend", "strategy", "s", "debug", "gamma", "chunk");
    const value = fc.oneof(
      fc.constantFrom(...VIEWS, "bench", "webgpu", "<script>", "%", "%zz", link, link.slice(0, 20)),
      fc.string({ maxLength: 12 }),
    );
    fc.assert(
      fc.property(fc.array(fc.tuple(key, value), { maxLength: 6 }), (pairs) => {
        const search = `?${pairs.map(([k, v]) => `${k}=${v}`).join("&")}`;
        const { state, problems } = parseUrlState(search);
        expect(VIEWS).toContain(state.view);
        for (const line of problems) expect(line.length).toBeGreaterThan(0);
        const linked = linkedSource(search);
        if (linked.error) expect(linked.error.message.startsWith("Player link")).toBe(true);
        const start = startupState(search, { getItem: () => pairs.map(([, v]) => v).join("") || null });
        expect(parsePlaygroundState(start.state).ok).toBe(true);
      }),
      runs,
    );
  });

  it("a saved session that cannot be read, or is damaged, starts the example and says why", () => {
    const denied = startupState("", {
      getItem: () => {
        throw new Error("storage is disabled");
      },
    });
    expect(denied.state).toEqual(FIRST_VISIT_STATE);
    expect(denied.error).toContain("storage is disabled");
    const damaged = startupState("", { getItem: () => "not a session" });
    expect(damaged.state).toEqual(FIRST_VISIT_STATE);
    expect(damaged.error).toMatch(/^Saved session/);
  });
});
