import { describe, expect, it } from "vitest";
import { backendMenuLabels } from "./backendLabels";
import { formatBoundFraction, formatError, formatMillis } from "./verdictFormat";

describe("verdict formatting", () => {
  it("writes the error as a fraction of its bound with two significant digits", () => {
    expect(formatBoundFraction(0.03125)).toBe("0.031");
    expect(formatBoundFraction(0.5)).toBe("0.5");
    expect(formatBoundFraction(1.54)).toBe("1.5");
    expect(formatBoundFraction(150.4)).toBe("150");
    expect(formatBoundFraction(0)).toBe("0");
    expect(formatBoundFraction(4.2e-5)).toBe("4.2e-5");
    expect(formatBoundFraction(3.1e8)).toBe("3.1e+8");
    expect(formatBoundFraction(Number.POSITIVE_INFINITY)).toBe("∞");
    expect(formatBoundFraction(Number.NaN)).toBe("NaN");
    expect(formatBoundFraction(null)).toBe("");
  });

  it("writes absolute errors in exponent form", () => {
    expect(formatError(3.0517578125e-7)).toBe("3.05e-7");
    expect(formatError(0)).toBe("0");
    expect(formatError(Number.POSITIVE_INFINITY)).toBe("Infinity");
    expect(formatError(undefined)).toBe("");
  });

  it("writes run times in at most four digits, so they fit their column", () => {
    expect([0.61, 26.24, 99.96, 104.9, 999.6, 1234, 61234, undefined].map(formatMillis)).toEqual([
      "0.6 ms",
      "26.2 ms",
      "100 ms",
      "105 ms",
      "1.00 s",
      "1.23 s",
      "61.2 s",
      "",
    ]);
  });
});

describe("backend menu labels", () => {
  it("name the backend that runs beside the one asked for, never only the one asked for", () => {
    expect(backendMenuLabels("webgpu", "webgpu").webgpu).toBe("webgpu");
    expect(backendMenuLabels("webgpu", "webgl").webgpu).toBe("webgpu (not running: webgl runs)");
    expect(backendMenuLabels("auto", "wasm").auto).toBe("auto (wasm runs)");
    expect(backendMenuLabels("wasm", null).wasm).toBe("wasm (not running)");
  });

  it("leave the other options plain", () => {
    expect(backendMenuLabels("webgpu", "webgl")).toEqual({
      auto: "auto (best available)",
      webgpu: "webgpu (not running: webgl runs)",
      webgl: "webgl",
      wasm: "wasm",
      cpu: "cpu",
    });
  });
});
