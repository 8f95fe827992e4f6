import { describe, expect, it } from "vitest";
import { refusalMessage } from "../testing/resultKit";
import { importNpy, parseNpy } from "./npyImport";
import { writeNpy } from "./npyTestFile";

/** `np.save("a.npy", np.arange(6, dtype="<f4").reshape(2, 3))` with numpy 2.4.6, byte for byte. */
const NUMPY_FILE = [
  "934e554d5059010076007b276465736372273a20273c6634272c2027666f727472616e5f6f72646572273a2046616c73652c",
  "20277368617065273a2028322c2033292c207d20202020202020202020202020202020202020202020202020202020202020",
  "2020202020202020202020202020202020202020202020202020200a000000000000803f0000004000004040000080400000",
  "a040",
].join("");

function hexBytes(hex: string): Uint8Array {
  return Uint8Array.from(hex.match(/../g) ?? [], (h) => Number.parseInt(h, 16));
}

const refusal = (bytes: Uint8Array) => refusalMessage(parseNpy(bytes, "x.npy"), "file");

describe(".npy files", () => {
  it("reads a file numpy wrote", () => {
    const bytes = hexBytes(NUMPY_FILE);
    expect(bytes.length).toBe(152);
    const parsed = parseNpy(bytes);
    expect(parsed.ok && { ...parsed.value, data: Array.from(parsed.value.data) }).toEqual({
      dtype: "float32",
      shape: [2, 3],
      data: [0, 1, 2, 3, 4, 5],
    });
  });

  it("reads float32 and float64, 1-D and 2-D, in every format version", () => {
    for (const version of [1, 2, 3] as const) {
      const f4 = parseNpy(writeNpy([1.5, -2, 3e-8], [3], { version }));
      expect(f4.ok && Array.from(f4.value.data)).toEqual([1.5, -2, Math.fround(3e-8)]);
      const f8 = parseNpy(writeNpy([0.1, 0.2, 0.3, 0.4], [2, 2], { descr: "<f8", version }));
      expect(f8.ok && f8.value).toMatchObject({ dtype: "float64", shape: [2, 2] });
      expect(f8.ok && Array.from(f8.value.data)).toEqual([0.1, 0.2, 0.3, 0.4]);
    }
  });

  it("turns an array into batch rows of one lane, rounding float64 to float32", () => {
    const rows = importNpy(writeNpy([0.1, 0, 0, 1], [2, 2], { descr: "<f8" }), "values", "v.npy");
    expect(rows).toEqual({
      ok: true,
      value: [
        { length: 2, values: [Math.fround(0.1), 0] },
        { length: 2, values: [0, 1] },
      ],
      notes: ["v.npy: float64 values rounded to float32"],
    });
    expect(importNpy(writeNpy([1, 0, 1], [3]), "lossMask")).toMatchObject({
      ok: true,
      value: [{ lossMask: [1, 0, 1] }],
    });
  });

  it("refuses values the scan cannot take, naming row and token", () => {
    const message = (bytes: Uint8Array, lane: "rewards" | "lossMask") => {
      const result = importNpy(bytes, lane, "x.npy");
      return result.ok ? "" : result.error.message;
    };
    const kept = importNpy(writeNpy([0, 1, 2, Number.NaN, Number.NEGATIVE_INFINITY, 5], [2, 3]), "rewards");
    expect(kept.ok && kept.value.map((row) => row.rewards)).toEqual([
      [0, 1, 2],
      [Number.NaN, Number.NEGATIVE_INFINITY, 5],
    ]);
    expect(message(writeNpy([Number.NaN], [1]), "lossMask")).toBe(
      "x.npy: row 0, token 0: a loss mask is 0 or 1, got NaN",
    );
    expect(message(writeNpy([1e39], [1], { descr: "<f8" }), "rewards")).toBe(
      "x.npy: row 0, token 0: 1e+39 is outside the float32 range (±3.4e38)",
    );
    expect(message(writeNpy([1, 0.5], [2]), "lossMask")).toBe("x.npy: row 0, token 1: a loss mask is 0 or 1, got 0.5");
    expect(message(writeNpy([], [0, 3]), "rewards")).toBe("x.npy: header field shape: (0, 3) holds no values");
  });

  it("names the byte or header field of every malformed file", () => {
    const good = writeNpy([1, 2, 3], [3]);
    expect(refusal(new TextEncoder().encode("a,b\n1,2"))).toBe(
      "x.npy: byte 0: not a .npy file: expected the magic string \\x93NUMPY, found 0x61",
    );
    expect(refusal(good.subarray(0, 4))).toBe(
      "x.npy: byte 4: not a .npy file: expected the magic string \\x93NUMPY, found the end of the file",
    );
    const v4 = good.slice();
    v4[6] = 4;
    expect(refusal(v4)).toBe("x.npy: byte 6: format version 4.0 is not one numpy writes (1.0, 2.0 or 3.0)");
    const long = good.slice();
    new DataView(long.buffer).setUint16(8, 5000, true);
    expect(refusal(long)).toBe("x.npy: byte 8: the header length 5000 runs past the end of the file (140 bytes)");
    expect(refusal(writeNpy([1], [1], { descr: ">f4" }))).toBe(
      "x.npy: header field descr: '>f4' is big-endian; save it little-endian (arr.astype('<f4'))",
    );
    expect(refusal(writeNpy([1], [1], { descr: "<i4" }))).toMatch(/^x.npy: header field descr: '<i4' is not float32/);
    expect(refusal(writeNpy([1], [1], { header: "{'descr': '<f4', 'fortran_order': True, 'shape': (1,), }" }))).toBe(
      "x.npy: header field fortran_order: True (Fortran order); save a C-ordered array (np.ascontiguousarray)",
    );
    expect(refusal(writeNpy([1], [1, 1, 1]))).toBe(
      "x.npy: header field shape: (1, 1, 1) has 3 dimensions; expected [T] or [B, T]",
    );
    expect(refusal(writeNpy([1], [1], { header: "{'descr': '<f4', 'shape': (1,), }" }))).toBe(
      "x.npy: header: field fortran_order is missing or not True/False",
    );
    expect(
      refusal(writeNpy([1], [1], { header: "{'descr': '<f4', 'fortran_order': False, 'shape': (1,), 'x': 1}" })),
    ).toMatch(/^x.npy: header: cannot read the dict near/);
    expect(refusal(writeNpy([1], [1], { header: "[1, 2]" }))).toBe("x.npy: header: is not a Python dict ({…})");
    expect(refusal(writeNpy([1], [100000, 100000]))).toMatch(
      /^x.npy: header field shape: \(100000, 100000\) is above the limits/,
    );
    expect(refusal(good.subarray(0, good.length - 1))).toBe(
      "x.npy: byte 128: shape (3) of 4-byte floats needs 12 data bytes, the file has 11",
    );
  });
});
