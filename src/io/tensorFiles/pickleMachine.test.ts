import { describe, expect, it } from "vitest";
import { type PickleHooks, runPickle, type StackValue } from "./pickleMachine";
import { TensorFileError } from "./tensorFileError";

const enc = (s: string) => Array.from(new TextEncoder().encode(s));
const u32 = (n: number) => [n & 255, (n >> 8) & 255, (n >> 16) & 255, (n >>> 24) & 255];
const str = (s: string) => [0x58, ...u32(enc(s).length), ...enc(s)];
const short = (s: string) => [0x8c, enc(s).length, ...enc(s)];

const hooks = (allowed: string[] = []): PickleHooks => ({
  allowedGlobals: new Set(allowed),
  persistentLoad: (pid) => ({ kind: "persistent", value: pid }),
  reduce: (callable, args) =>
    callable.name === "collections.OrderedDict" && args.length === 0 ? new Map() : ["reduced", callable.name],
});

function run(bytes: number[], allowed?: string[]): StackValue {
  return runPickle(Uint8Array.from(bytes), 0, hooks(allowed), "t/data.pkl", "t.pt").value;
}

function refusal(bytes: number[], allowed?: string[]): TensorFileError {
  try {
    run(bytes, allowed);
  } catch (error) {
    if (error instanceof TensorFileError) return error;
    throw error;
  }
  throw new Error("expected a refusal");
}

describe("runPickle", () => {
  it("builds dicts, lists and tuples, and shares memoised values as Python does", () => {
    // {'a': [1, 2], 'b': (None, True)} with the list memoised and fetched again as 'c'
    const program = [
      0x80,
      2,
      0x7d,
      0x28,
      ...str("a"),
      0x5d,
      0x71,
      1,
      0x28,
      0x4b,
      1,
      0x4b,
      2,
      0x65,
      ...str("b"),
      0x4e,
      0x88,
      0x86,
      ...str("c"),
      0x68,
      1,
      0x75,
      0x2e,
    ];
    const value = run(program) as Map<string, StackValue>;
    expect([...value.keys()]).toEqual(["a", "b", "c"]);
    expect(value.get("a")).toEqual([1, 2]);
    expect(value.get("b")).toEqual([null, true]);
    expect(value.get("c")).toBe(value.get("a"));
  });

  it("reads the protocol 3–4 opcodes other writers use: FRAME, SHORT_BINUNICODE, MEMOIZE, DICT, LIST, STACK_GLOBAL", () => {
    const program = [0x80, 4, 0x95, ...u32(20), 0, 0, 0, 0, 0x28, ...short("k"), 0x94, 0x28, 0x4b, 7, 0x6c, 0x64, 0x2e];
    expect(run(program)).toEqual(new Map([["k", [7]]]));
    const stackGlobal = [0x80, 4, ...short("collections"), ...short("OrderedDict"), 0x93, 0x29, 0x52, 0x2e];
    expect(run(stackGlobal, ["collections.OrderedDict"])).toEqual(new Map());
    const refused = refusal([0x80, 4, ...short("os"), ...short("system"), 0x93, ...short("id"), 0x85, 0x52, 0x2e]);
    expect(refused.message).toContain('GLOBAL "os.system" is not allowed');
    expect(refused.where).toBe("record t/data.pkl, byte 14"); // the STACK_GLOBAL
  });

  it("never changes a tuple, never appends to a dict", () => {
    expect(refusal([0x80, 2, 0x29, 0x4b, 1, 0x61, 0x2e]).message).toContain("APPEND to a tuple");
    expect(refusal([0x80, 2, 0x29, 0x4b, 1, 0x4b, 2, 0x73, 0x2e]).message).toContain("SETITEM on a tuple");
  });

  it("memoises at any index, far or sparse, and reads back what was written there", () => {
    // LONG_BINPUT 4294967295 and BINPUT 3 of one list; a tuple of (LONG_BINGET far, BINGET 3, the list)
    const far = [0x72, ...u32(0xffffffff)];
    const program = [0x80, 2, 0x5d, ...far, 0x71, 3, 0x6a, ...u32(0xffffffff), 0x68, 3, 0x87, 0x2e];
    const value = run(program) as StackValue[];
    expect(value).toHaveLength(3);
    expect(value[0]).toBe(value[1]);
    expect(value[1]).toBe(value[2]);
    // A list that was memoised is still a list (APPEND works), and a read before any write is named.
    expect(run([0x80, 2, 0x5d, 0x71, 0, 0x4b, 1, 0x61, 0x2e])).toEqual([1]);
    expect(refusal([0x80, 2, 0x68, 5, 0x2e]).message).toContain("memo entry 5 is read before it is written");
  });

  it("refuses what would build or run arbitrary objects, and malformed programs, at their byte", () => {
    expect(refusal([0x80, 2, 0x4e, 0x81, 0x2e]).message).toContain("opcode NEWOBJ (0x81) is refused");
    expect(refusal([0x80, 2, 0x4e, 0x69, 0x2e]).message).toContain("opcode INST");
    expect(refusal([0x80, 2, 0x4e, 0x4e, 0x2e]).message).toContain("STOP with 2 values");
    expect(refusal([0x80, 2, 0x4e]).message).toContain("without a STOP");
    expect(refusal([0x80, 2, 0x58, ...u32(100), 0x41]).message).toContain("ends inside an opcode's argument");
    expect(refusal([0x80, 2, 0x4e, 0x29, 0x52, 0x2e]).message).toContain("REDUCE of a None");
    expect(refusal([0x80, 2, 0x28, 0x2e]).where).toBe("record t/data.pkl, byte 3");
  });

  it("reads LONG1 as a number when exact, as a bigint beyond 2^53 (torch's legacy magic)", () => {
    expect(run([0x80, 2, 0x8a, 2, 0xff, 0x7f, 0x2e])).toBe(32767);
    expect(run([0x80, 2, 0x8a, 1, 0xff, 0x2e])).toBe(-1);
    expect(run([0x80, 2, 0x8a, 10, 0x6c, 0xfc, 0x9c, 0x46, 0xf9, 0x20, 0x6a, 0xa8, 0x50, 0x19, 0x2e])).toBe(
      0x1950a86a20f9469cfc6cn,
    );
  });

  it("keeps only the memo entries the pickle reads back, walking every opcode's arguments as it runs them", () => {
    // Arguments full of BINGET (0x68) and STOP (0x2e) bytes: a walk that misjudged their length would
    // read them as opcodes and miss the BINGET 7 at the end (runPickle then throws a plain Error).
    const tricky = [0x68, 0x2e, 0x68, 0x68];
    const values: [string, number[], unknown][] = [
      ["BINUNICODE", [0x58, ...u32(4), 0x68, 0x2e, 0x68, 0x68], "h.hh"],
      ["SHORT_BINUNICODE", [0x8c, 4, 0x68, 0x2e, 0x68, 0x68], "h.hh"],
      ["BINUNICODE8", [0x8d, ...u32(4), ...u32(0), 0x68, 0x2e, 0x68, 0x68], "h.hh"],
      ["BINBYTES", [0x42, ...u32(4), ...tricky], Uint8Array.from(tricky)],
      ["SHORT_BINBYTES", [0x43, 4, ...tricky], Uint8Array.from(tricky)],
      ["BININT", [0x4a, 0x68, 0x2e, 0x68, 0], 0x682e68],
      ["BININT1", [0x4b, 0x68], 0x68],
      ["BININT2", [0x4d, 0x68, 0x2e], 0x2e68],
      ["LONG1", [0x8a, 2, 0x68, 0x2e], 0x2e68],
      [
        "BINFLOAT",
        [0x47, 0x40, 0x2e, 0x68, 0x68, 0x68, 0x68, 0x68, 0x68],
        new DataView(Uint8Array.from([0x40, 0x2e, 0x68, 0x68, 0x68, 0x68, 0x68, 0x68]).buffer).getFloat64(0),
      ],
      ["GLOBAL", [0x63, ...enc("collections\nOrderedDict\n")], { kind: "global", name: "collections.OrderedDict" }],
      ["NONE", [0x4e], null],
      ["NEWTRUE", [0x88], true],
      ["EMPTY_TUPLE", [0x29], []],
      ["MARK … TUPLE", [0x28, 0x4b, 0x68, 0x74], [0x68]],
      ["BINGET", [0x68, 7], [5]],
      ["LONG_BINGET", [0x6a, ...u32(7)], [5]],
    ];
    // Opcodes with arguments that push nothing: PROTO, FRAME, BINPUT, LONG_BINPUT, MEMOIZE.
    const quiet = [0x80, 2, 0x95, ...tricky, ...tricky, 0x71, 0x68, 0x72, ...tricky, 0x94];
    for (const [name, push, expected] of values) {
      // [5] memoised as entry 7, a value appended to a new list, the quiet opcodes, then [5] read back.
      const program = [0x80, 2, 0x5d, 0x4b, 5, 0x61, 0x71, 7, 0x30, 0x5d, ...push, 0x61, ...quiet, 0x30, 0x68, 7, 0x2e];
      const got = run(program, ["collections.OrderedDict"]);
      expect(got, name).toEqual([5]);
      // The value itself, as the list's item.
      const list = run(
        [0x80, 2, 0x5d, 0x4b, 5, 0x61, 0x71, 7, 0x30, 0x5d, ...push, 0x61, 0x2e],
        ["collections.OrderedDict"],
      ) as StackValue[];
      expect(list[0], name).toEqual(expected);
    }
  });
});
