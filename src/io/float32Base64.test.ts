import { Buffer } from "node:buffer";
import { describe, expect, it } from "vitest";
import { base64ToBytes, base64ToFloat32, bytesToBase64, float32ToBase64 } from "./float32Base64";

describe("base64 of float32 data", () => {
  it("agrees with Node's own base64 and base64url for every length", () => {
    for (let n = 0; n < 40; n++) {
      const bytes = Uint8Array.from({ length: n }, (_, i) => (i * 97 + n * 31) & 255);
      const buffer = Buffer.from(bytes);
      expect(bytesToBase64(bytes)).toBe(buffer.toString("base64"));
      expect(bytesToBase64(bytes, "url")).toBe(buffer.toString("base64url"));
      expect(base64ToBytes(buffer.toString("base64"))).toEqual(bytes);
      expect(base64ToBytes(buffer.toString("base64url"), "url")).toEqual(bytes);
    }
  });

  it("writes little-endian float32, as numpy's '<f4' reads it", () => {
    const text = float32ToBase64([1, -2.5, 0.1]);
    const buffer = Buffer.from(text, "base64");
    expect([0, 4, 8].map((at) => buffer.readFloatLE(at))).toEqual([1, -2.5, Math.fround(0.1)]);
    expect(Array.from(base64ToFloat32(text) as Float32Array)).toEqual([1, -2.5, Math.fround(0.1)]);
  });

  it("refuses text outside the alphabet, bad padding and partial floats", () => {
    expect(base64ToBytes("AA=A")).toBe("is not valid base64");
    expect(base64ToBytes("AAA")).toBe("is not valid base64");
    expect(base64ToBytes("A-_A")).toBe("is not valid base64");
    expect(base64ToBytes("AA+A", "url")).toBe("is not valid base64url");
    expect(base64ToBytes("AAAAA", "url")).toBe("is not valid base64url");
    expect(base64ToBytes("é", "url")).toBe("is not valid base64url");
    expect(base64ToFloat32("AAAAAAA=")).toBe("holds 5 bytes, not a whole number of float32 values (4 bytes each)");
  });
});
