import { describe, expect, it } from "vitest";
import { fusedPlan } from "./fusedLayout";
import { rowsSource, SCAN_UNIFORMS, scanProgram, segmentsSource, TRACE_SOURCE, traceProgram } from "./fusedPrograms";
import { scanUniforms, traceUniforms } from "./fusedUniforms";

const sources = [rowsSource(true), rowsSource(false), segmentsSource(64), TRACE_SOURCE];

describe("the WGSL sources", () => {
  it("never take a power with pow (built by multiplication or passed in)", () => {
    for (const source of sources) expect(source).not.toMatch(/\bpow\s*\(/);
  });

  it("compute every output as x + d·g with the uniform discount, in every layout", () => {
    for (const source of sources) expect(source).toMatch(/let d = uniforms\.discount;/);
    expect(rowsSource(false)).toContain("g = x[first + t] + d * g;");
    expect(segmentsSource(64)).toContain("g = x[last - i] + d * g;");
  });

  it("load and store four tokens at once in the vec4 row layout", () => {
    const source = rowsSource(true);
    expect(source).toContain("let v = x[first + q];");
    expect(source).toContain("result[first + q] = vec4<f32>(g0, g1, g2, g3);");
    // Right to left inside the vec4: w is the latest token.
    expect(source.indexOf("let g3 = v.w + d * g;")).toBeLessThan(source.indexOf("let g0 = v.x + d * g1;"));
  });

  it("join segments with two barriers and a carry array of one slot per lane, never returning early", () => {
    const source = segmentsSource(32);
    expect(source.match(/workgroupBarrier\(\)/g)).toHaveLength(2);
    expect(source).toContain("var<workgroup> segmentCarry : array<f32, 32>;");
    expect(source).toContain("carry = end + uniforms.segmentPower * carry;");
    expect(source).not.toContain("return");
  });

  it("use no barrier in the row layouts", () => {
    for (const source of [rowsSource(true), rowsSource(false), TRACE_SOURCE]) expect(source).not.toContain("Barrier");
  });
});

describe("the programs", () => {
  it("dispatch one workgroup per row for segments, one invocation per row otherwise", () => {
    const segments = scanProgram(fusedPlan({ rows: 8, cols: 4096 }, 0.99, { software: false }), 8, 4096);
    expect(segments.dispatch).toEqual([8, 1, 1]);
    expect(segments.workgroupSize).toEqual([64, 1, 1]);
    expect(segments.shaderKey).toBe("scanlabFused_segments64");
    const rows = scanProgram(fusedPlan({ rows: 9, cols: 4096 }, 0.99, { software: true }), 9, 4096);
    expect(rows.dispatch).toEqual([3, 1, 1]);
    expect(rows.variableComponents).toEqual([4]);
    expect(rows.outputComponent).toBe(4);
    expect(rows.shaderKey).toBe("scanlabFused_rows_vec4");
    const scalar = scanProgram(fusedPlan({ rows: 9, cols: 5 }, 0.99, { software: true }), 9, 5);
    expect(scalar.variableComponents).toBeUndefined();
    expect(scalar.shaderKey).toBe("scanlabFused_rows");
    expect(scalar.outputShape).toEqual([9, 5]);
    expect(scalar.uniforms).toBe(SCAN_UNIFORMS);
  });

  it("give the trace one C + 1 slot per chunk: the local scan, then the carry", () => {
    const trace = traceProgram(5, 3, 16, 4);
    expect(trace.outputShape).toEqual([5, 3, 17]);
    expect(trace.dispatch).toEqual([2, 1, 1]);
  });
});

describe("the uniforms", () => {
  it("pass fl32(d), fl32(d)^L taken in float64 and rounded once, and L", () => {
    const plan = fusedPlan({ rows: 1, cols: 64 * 100 }, 0.99, { software: false });
    const [d, power, length] = scanUniforms(plan, 0.99);
    expect(d).toEqual({ type: "float32", data: [Math.fround(0.99)] });
    expect(power).toEqual({ type: "float32", data: [Math.fround(Math.fround(0.99) ** 100)] });
    expect(length).toEqual({ type: "int32", data: [100] });
    // Not the float32 chain of products, which drifts by ulps over 100 steps.
    let chain = 1;
    for (let k = 0; k < 100; k++) chain = Math.fround(chain * Math.fround(0.99));
    expect(power.data[0]).not.toBe(chain);
  });

  it("give d = 0 a zero segment power (slime's identity branch: no carry reaches an output)", () => {
    const plan = fusedPlan({ rows: 1, cols: 4096 }, 0, { software: false }, "segments");
    expect(scanUniforms(plan, 0)[1].data).toEqual([0]);
  });

  it("pass the trace's discount and chunk size", () => {
    expect(traceUniforms(0.95, 128)).toEqual([
      { type: "float32", data: [Math.fround(0.95)] },
      { type: "int32", data: [128] },
    ]);
  });
});
