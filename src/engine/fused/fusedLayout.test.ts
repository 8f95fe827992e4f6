import { describe, expect, it } from "vitest";
import {
  chooseFusedLayout,
  fusedPlan,
  isSoftwareAdapter,
  MIN_COLS_FOR_SEGMENTS,
  MIN_ROWS_FOR_ROW_LAYOUT,
  parseLayoutRequest,
  SEGMENT_LANES,
} from "./fusedLayout";

const gpu = { software: false };
const swiftshader = { software: true };

describe("chooseFusedLayout", () => {
  it("runs whole rows on a software adapter, whatever the shape", () => {
    for (const shape of [
      { rows: 1, cols: 1 << 16 },
      { rows: 8, cols: 4096 },
      { rows: 64, cols: 32768 },
    ]) {
      expect(chooseFusedLayout(shape, 0.99, swiftshader)).toBe("rows");
    }
  });

  it("cuts few long rows into segments on a real GPU", () => {
    expect(chooseFusedLayout({ rows: 1, cols: 1024 }, 0.99, gpu)).toBe("segments");
    expect(chooseFusedLayout({ rows: 8, cols: 4096 }, 0.99, gpu)).toBe("segments");
    expect(chooseFusedLayout({ rows: 64, cols: 32768 }, 1, gpu)).toBe("segments");
  });

  it("keeps whole rows on a real GPU when there are enough rows, or the rows are short", () => {
    expect(chooseFusedLayout({ rows: MIN_ROWS_FOR_ROW_LAYOUT, cols: 4096 }, 0.99, gpu)).toBe("rows");
    expect(chooseFusedLayout({ rows: MIN_ROWS_FOR_ROW_LAYOUT - 1, cols: 4096 }, 0.99, gpu)).toBe("segments");
    expect(chooseFusedLayout({ rows: 1, cols: MIN_COLS_FOR_SEGMENTS - 1 }, 0.99, gpu)).toBe("rows");
    expect(chooseFusedLayout({ rows: 1, cols: MIN_COLS_FOR_SEGMENTS }, 0.99, gpu)).toBe("segments");
  });

  it("never segments a row whose discount exceeds 1 in float32 (d^L could overflow)", () => {
    expect(chooseFusedLayout({ rows: 1, cols: 4096 }, 1.0001, gpu)).toBe("rows");
    expect(chooseFusedLayout({ rows: 1, cols: 4096 }, -1.5, gpu)).toBe("rows");
    // 1 + 2^-30 rounds to 1 in float32: the kernel computes with 1.
    expect(chooseFusedLayout({ rows: 1, cols: 4096 }, 1 + 2 ** -30, gpu)).toBe("segments");
  });
});

describe("fusedPlan", () => {
  it("uses vec4 loads only when every row starts on a vec4 (T a multiple of 4)", () => {
    expect(fusedPlan({ rows: 3, cols: 8 }, 0.5, swiftshader)).toEqual({
      layout: "rows",
      vec4: true,
      workgroupSize: 4,
      segmentLength: 8,
    });
    expect(fusedPlan({ rows: 3, cols: 5 }, 0.5, swiftshader).vec4).toBe(false);
    expect(fusedPlan({ rows: 3, cols: 1 }, 0.5, swiftshader).vec4).toBe(false);
    expect(fusedPlan({ rows: 3000, cols: 8 }, 0.5, gpu).workgroupSize).toBe(64);
  });

  it("cuts a row into at most SEGMENT_LANES segments of ⌈T / lanes⌉ tokens", () => {
    expect(fusedPlan({ rows: 2, cols: 32768 }, 0.99, gpu)).toEqual({
      layout: "segments",
      vec4: false,
      workgroupSize: SEGMENT_LANES,
      segmentLength: 512,
    });
    expect(fusedPlan({ rows: 2, cols: 1000 }, 0.99, gpu).segmentLength).toBe(16);
    // Forced on a short row: one token per lane, the other lanes idle.
    expect(fusedPlan({ rows: 2, cols: 3 }, 0.99, swiftshader, "segments").segmentLength).toBe(1);
  });

  it("follows a forced layout on any adapter", () => {
    expect(fusedPlan({ rows: 1, cols: 8192 }, 0.99, swiftshader, "segments").layout).toBe("segments");
    expect(fusedPlan({ rows: 1, cols: 8192 }, 0.99, gpu, "rows").layout).toBe("rows");
  });
});

it("reads a layout request and refuses anything else by name", () => {
  expect(parseLayoutRequest("auto")).toBe("auto");
  expect(parseLayoutRequest("segments")).toBe("segments");
  expect(() => parseLayoutRequest("tiles")).toThrow("SCANLAB_FUSED_LAYOUT must be auto, rows or segments, got tiles");
});

it("recognises SwiftShader as a software adapter", () => {
  expect(isSoftwareAdapter({ vendor: "google", architecture: "swiftshader" })).toBe(true);
  expect(isSoftwareAdapter({ vendor: "nvidia", architecture: "ampere", isFallbackAdapter: false })).toBe(false);
  expect(isSoftwareAdapter({ vendor: "", architecture: "", isFallbackAdapter: true })).toBe(true);
});
