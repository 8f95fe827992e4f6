import { describe, expect, it } from "vitest";
import {
  downsampleNotes,
  errorSeries,
  linePoints,
  MAX_ERROR_DECADES,
  niceDomain,
  returnsSeries,
  tickLabels,
  tokenAtX,
  tokenDomain,
  tokenTicks,
  valueAxisOf,
  valueTickCount,
} from "./chartSeries";

describe("returnsSeries", () => {
  it("turns non-finite values into gaps and counts them", () => {
    const s = returnsSeries([1, Number.NaN, 3], [1, 2, Number.POSITIVE_INFINITY], 800);
    expect(s.reference).toEqual([
      { t: 0, v: 1 },
      { t: 1, v: null },
      { t: 2, v: 3 },
    ]);
    expect(s.chunked).toEqual([
      { t: 0, v: 1 },
      { t: 1, v: 2 },
      { t: 2, v: null },
    ]);
    expect(s.nonFinite).toBe(2);
    expect(Object.isFrozen(s.reference)).toBe(true);
  });

  it("downsamples long rows but keeps a spike", () => {
    const n = 8192;
    const ref = new Float64Array(n).map((_, t) => Math.sin(t / 100));
    const chunked = Float32Array.from(ref);
    chunked[6000] = 50;
    const s = returnsSeries(ref, chunked, 700);
    // Each line its own minimum and maximum per bucket, not the union of both lines' points.
    expect(s.reference.length).toBeLessThanOrEqual(2 * 700 + 2);
    expect(s.chunked.length).toBeLessThanOrEqual(2 * 700 + 2);
    expect(s.chunked.find((p) => p.t === 6000)?.v).toBe(50);
    expect(s.reference.find((p) => p.t === 6000)).toBeUndefined();
    expect(downsampleNotes([s.reference, s.chunked], n)).toEqual([
      `up to ${Math.max(s.reference.length, s.chunked.length)} of 8192 tokens drawn per line: its minimum and maximum every 2 pixels`,
    ]);
  });
});

describe("errorSeries", () => {
  it("puts zeros on a floor a decade below the smallest error and says how many", () => {
    const s = errorSeries([0, 3e-7, 2e-5], [1e-7, 0, 0], undefined, 800);
    expect(s.top).toBe(-4);
    expect(s.floor).toBe(-8);
    expect(s.chunked[0].v).toBe(-8);
    expect(s.chunked[1].v).toBeCloseTo(Math.log10(3e-7), 12);
    expect(s.bound).toBeNull();
    expect(s.zeros).toEqual({ chunked: 1, serial: 2 });
    expect(s.ticks.at(-1)).toBe(-4);
    expect(s.ticks[0]).toBeGreaterThanOrEqual(-8);
  });

  it("caps the axis and counts what sits on the floor", () => {
    const s = errorSeries([1e-30, 1e-3], [1e-3, 1e-3], [1e-2, 1e-2], 800);
    expect(s.top - s.floor).toBe(MAX_ERROR_DECADES);
    expect(s.belowFloor).toBe(1);
    expect(s.bound?.[0].v).toBeCloseTo(-2, 12);
  });

  it("lists tokens with non-finite errors and gaps them", () => {
    const s = errorSeries([1e-7, Number.NaN, 1e-7], [1e-7, 1e-7, Number.POSITIVE_INFINITY], undefined, 800);
    expect(s.nonFiniteTokens).toEqual([1, 2]);
    expect(s.chunked[1].v).toBeNull();
    expect(s.serial[2].v).toBeNull();
  });

  it("still draws an all-zero error row", () => {
    const s = errorSeries([0, 0], [0, 0], undefined, 800);
    expect(s.chunked.every((p) => p.v === s.floor)).toBe(true);
  });
});

describe("token axis", () => {
  it("maps the plot's pixels onto token cells and ignores the margins", () => {
    // 300 tokens over 800 px: token t spans [72 + t·800/300, 72 + (t+1)·800/300).
    expect(tokenAtX(72, 72, 872, 300)).toBe(0);
    expect(tokenAtX(74, 72, 872, 300)).toBe(0);
    expect(tokenAtX(75, 72, 872, 300)).toBe(1);
    expect(tokenAtX(872, 72, 872, 300)).toBe(299);
    expect(tokenAtX(472, 72, 872, 300)).toBe(150);
    expect(tokenAtX(10, 72, 872, 300)).toBeNull();
    expect(tokenDomain(300)).toEqual([-0.5, 299.5]);
  });

  it("picks round tick steps that fit the width", () => {
    expect(tokenTicks(300, 800)).toEqual([0, 50, 100, 150, 200, 250]);
    expect(tokenTicks(8192, 800).slice(0, 3)).toEqual([0, 1000, 2000]);
    expect(tokenTicks(5, 800)).toEqual([0, 1, 2, 3, 4]);
    expect(tokenTicks(0, 800)).toEqual([]);
  });
});

describe("niceDomain", () => {
  it("widens to round ticks over the finite values", () => {
    const a = [
      { t: 0, v: -21.3 },
      { t: 1, v: 3 },
    ];
    const b = [
      { t: 0, v: null },
      { t: 1, v: 19.7 },
    ];
    expect(niceDomain([a, b])).toEqual({ domain: [-30, 20], ticks: [-30, -20, -10, 0, 10, 20] });
    expect(niceDomain([linePoints([0.1, 0.3], 2, 800)]).ticks).toEqual([0.1, 0.15, 0.2, 0.25, 0.3]);
  });

  it("widens the data once to d3's step, asking fewer ticks where d3's would crowd the plot", () => {
    const span = (lo: number, hi: number, count: number) =>
      niceDomain(
        [
          [
            { t: 0, v: lo },
            { t: 1, v: hi },
          ],
        ],
        count,
      );
    // d3's nice() would reach [-5, 10] here, widening until its step settles.
    expect(span(-3.3, 4.2, 3)).toEqual({ domain: [-5, 5], ticks: [-5, 0, 5] });
    // d3 steps 1.28 in 5 by 0.2 (8 steps once widened): asked 4, it steps by 0.5.
    expect(span(-1.45, -0.17, 5)).toEqual({ domain: [-1.5, 0], ticks: [-1.5, -1, -0.5, 0] });
    expect(span(0, 1.3, 3)).toEqual({ domain: [0, 1.5], ticks: [0, 0.5, 1, 1.5] });
    expect(valueTickCount(112)).toBe(3);
    expect(valueTickCount(200)).toBe(5);
    expect(valueTickCount(40)).toBe(2);
  });

  it("copes with flat and empty data", () => {
    expect(niceDomain([[{ t: 0, v: 0 }]]).domain).toEqual([-1, 1]);
    expect(niceDomain([[{ t: 0, v: 5 }]]).domain[0]).toBeLessThan(5);
    expect(niceDomain([[{ t: 0, v: null }]])).toEqual({ domain: [-1, 1], ticks: [-1, 0, 1] });
    expect(niceDomain([])).toEqual({ domain: [-1, 1], ticks: [-1, 0, 1] });
  });
});

describe("a flat line's value axis", () => {
  const line = (values: number[]) => linePoints(values, values.length, 800);

  it("spans ±1% around a line whose only wiggle is float32 rounding, with labels that differ", () => {
    // 13.5 and its float32 neighbours: ticks spaced by that wiggle all read "13.5" at three digits.
    const wiggle = [13.5, Math.fround(13.5 + 1e-6), 13.5, Math.fround(13.5 - 1e-6)];
    const { domain, ticks, tickFormatter } = valueAxisOf([line(wiggle)]);
    expect(domain[0]).toBeLessThanOrEqual(13.365);
    expect(domain[1]).toBeGreaterThanOrEqual(13.635);
    const labels = ticks.map(tickFormatter);
    expect(new Set(labels).size).toBe(labels.length);
    expect(labels).toContain("13.5");
  });

  it("keeps a real spread as it was, and a constant zero at ±1", () => {
    expect(niceDomain([line([0.1, 0.3])]).ticks).toEqual([0.1, 0.15, 0.2, 0.25, 0.3]);
    expect(niceDomain([line([0, 0, 0])]).domain).toEqual([-1, 1]);
  });

  it("labels ticks with the digits their step needs", () => {
    expect(tickLabels([1, 2, 3])(2)).toBe("2");
    const close = [13.5001, 13.5002, 13.5003];
    const format = tickLabels(close);
    expect(new Set(close.map(format)).size).toBe(3);
  });
});
