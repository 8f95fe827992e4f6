import { describe, expect, it } from "vitest";
import { discountPowers } from "../discountPowers";
import {
  bitsOf,
  correctlyRoundedPowers,
  decodeTable,
  floatOf,
  kernelHash,
  readTorchTablesFixture,
} from "./fixtures/torchTablesFixture";
import { glibcPowf } from "./glibcPowf";
import { sleefPowf } from "./sleefPowf";
import { DEBIAN_TORCH_AVX2, scalarRanges, threadSlices } from "./torchCpuLayout";
import { torchCarryPower, torchPowTables, triangleEntry } from "./torchPowTables";

const fixture = readTorchTablesFixture();

/** The same float32 bits, or both NaN: glibc's 0/0 is x86's negative default NaN, JavaScript has one NaN. */
function sameFloat32(value: number, hex: string): boolean {
  const expected = floatOf(Number.parseInt(hex, 16));
  return Number.isNaN(expected) ? Number.isNaN(value) : bitsOf(value) === Number.parseInt(hex, 16);
}

describe("the two powf ports", () => {
  it("equal SLEEF 3.5.1 powf u10 (FMA) and glibc 2.36 powf bit for bit on every sample", () => {
    let sleefWrong = 0;
    let glibcWrong = 0;
    const first: string[] = [];
    for (const [b, y, sleef, glibc] of fixture.powf_samples) {
      const x = floatOf(Number.parseInt(b, 16));
      const k = floatOf(Number.parseInt(y, 16));
      if (!sameFloat32(sleefPowf(x, k), sleef)) {
        sleefWrong++;
        first.push(`sleef ${x}^${k}`);
      }
      if (!sameFloat32(glibcPowf(x, k), glibc)) {
        glibcWrong++;
        first.push(`glibc ${x}^${k}`);
      }
    }
    expect(first.slice(0, 5)).toEqual([]);
    expect([sleefWrong, glibcWrong]).toEqual([0, 0]);
    expect(fixture.powf_samples.length).toBeGreaterThan(5000);
  });
});

describe("torch's float32 power tables", () => {
  for (const config of fixture.configs) {
    const cpu = { capability: config.capability, threads: config.threads };
    it(`are reproduced bit for bit: ${config.capability}, ${config.threads} thread(s), ${config.tables.length} tables`, () => {
      const wrong: string[] = [];
      let entries = 0;
      for (const t of config.tables) {
        const torch = decodeTable(t);
        const ours = torchPowTables(t.discount, t.chunk_size, cpu);
        const ourPatches = new Map(ours.kernelPatches.map((p) => [`${p.row},${p.col}`, bitsOf(p.value)]));
        const where = `d=${t.discount} C=${t.chunk_size}`;
        for (let k = 0; k < t.chunk_size; k++) {
          if (bitsOf(ours.kernelRow[k]) !== torch.kernelRow[k]) wrong.push(`${where} M_row0[${k}]`);
          if (bitsOf(ours.carryPowers[k]) !== torch.carryPowers[k]) wrong.push(`${where} pow_vec[${k}]`);
        }
        const ourRow = Uint32Array.from(ours.kernelRow, bitsOf);
        if (kernelHash(t.chunk_size, ourRow, ourPatches) !== t.M_hash) wrong.push(`${where} M`);
        expect([...ourPatches].sort()).toEqual([...torch.patches].sort());
        entries += 2 * t.chunk_size + (t.chunk_size * (t.chunk_size + 1)) / 2;
      }
      expect(wrong.slice(0, 10)).toEqual([]);
      expect(entries).toBeGreaterThan(100_000);
    });
  }

  it("differ from the correctly rounded powers the page used before (0.99^30, C = 128)", () => {
    const avx2 = fixture.configs.find((c) => c.capability === "avx2" && c.threads === 1);
    const t = avx2?.tables.find((x) => x.discount === 0.99 && x.chunk_size === 128);
    if (!t) throw new Error("the fixture has no 0.99, C = 128 table");
    const torch = decodeTable(t);
    const cr = correctlyRoundedPowers(0.99, 129);
    expect(floatOf(torch.carryPowers[29])).toBe(Math.fround(0.7397005558013916));
    expect(cr[30]).toBe(Math.fround(0.7397006154060364));
    // The default float32 tables are torch's, not the correctly rounded ones.
    const tables = discountPowers(0.99, 128, "float32");
    expect(tables.carryPowers[29]).toBe(floatOf(torch.carryPowers[29]));
    const rounded = discountPowers(0.99, 128, "float32", "correctly-rounded");
    expect(rounded.carryPowers[29]).toBe(cr[30]);
    let differ = 0;
    for (let k = 0; k < 128; k++) if (tables.carryPowers[k] !== rounded.carryPowers[k]) differ++;
    expect(differ).toBe(t.pow_vec_ulps.length);
    expect(differ).toBeGreaterThan(0);
  });

  it("give the carry over a whole chunk alone, as the full tables have it", () => {
    for (const d of [0.99, 0.9, 0.5495936876730595, 0.999]) {
      for (const C of [1, 15, 16, 37, 128, 1000]) {
        expect(torchCarryPower(d, C, DEBIAN_TORCH_AVX2)).toBe(
          torchPowTables(d, C, DEBIAN_TORCH_AVX2).carryPowers[C - 1],
        );
      }
    }
  });

  it("are not always Toeplitz: the scalar tail of the triangle can round d^4 differently", () => {
    const ours = torchPowTables(0.5495936876730595, 37, DEBIAN_TORCH_AVX2);
    expect(ours.kernelPatches).toEqual([{ row: 32, col: 36, value: Math.fround(0.09123615) }]);
    expect(ours.kernelRow[4]).toBe(Math.fround(0.091236144));
  });
});

describe("torch's CPU loop layout", () => {
  it("vectorises blocks of 16 floats on AVX2 and leaves the rest to the scalar loop", () => {
    expect(scalarRanges(37, DEBIAN_TORCH_AVX2)).toEqual([[32, 37]]);
    expect(scalarRanges(128, DEBIAN_TORCH_AVX2)).toEqual([]);
    expect(scalarRanges(10, DEBIAN_TORCH_AVX2)).toEqual([[0, 10]]);
    expect(scalarRanges(37, { capability: "default", threads: 1 })).toEqual([[0, 37]]);
  });

  it("splits calls above 32768 elements between threads, each slice with its own tail", () => {
    // 45150 = the C = 300 triangle: two slices of 22575, each ending in 15 scalar elements.
    expect(threadSlices(32768, 2)).toEqual([[0, 32768]]);
    expect(threadSlices(45150, 2)).toEqual([
      [0, 22575],
      [22575, 45150],
    ]);
    expect(scalarRanges(45150, { capability: "avx2", threads: 2 })).toEqual([
      [22560, 22575],
      [45135, 45150],
    ]);
  });

  it("maps a flat triangle index back to its row and column", () => {
    const C = 37;
    let flat = 0;
    for (let i = 0; i < C; i++) {
      for (let j = i; j < C; j++) {
        expect(triangleEntry(flat, C)).toEqual({ row: i, col: j });
        flat++;
      }
    }
  });
});
