import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { linePath, roundText, TokenPlot } from "./TokenPlot";

const x = (t: unknown) => 10 + 2 * (t as number);
const y = (v: unknown) => 100 - (v as number);

describe("roundText", () => {
  it("writes a pixel's hundredths as String writes the rounded number", () => {
    const round = (px: number) => Math.round(px * 100) / 100;
    const xs = [0, -0, 0.004, -0.004, 0.005, -0.005, 0.07, -0.1, 1.005, 2.675, 99.995, 123.456, -123.4, 1e-9];
    xs.push(5e12 + 0.37, 1e14, -1e14, 1e20, -1e300, Number.MAX_VALUE, Number.NaN, Number.POSITIVE_INFINITY);
    for (let i = 0; i < 20_000; i++) xs.push(Math.sin(i) * 10 ** ((i % 17) - 3));
    for (const px of xs) expect(roundText(px)).toBe(String(round(px)));
  });
});

describe("linePath", () => {
  it("draws the points in order and lifts the pen at each gap, as a line without connectNulls", () => {
    const points = [
      { t: 0, v: 1 },
      { t: 1, v: 2.254 },
      { t: 2, v: null },
      { t: 3, v: 4 },
      { t: 4, v: 5 },
    ];
    expect(linePath(points, x, y)).toBe("M10,99L12,97.75M16,96L18,95");
  });

  it("draws nothing for no points or only gaps, and skips a point the scale cannot place", () => {
    expect(linePath([], x, y)).toBe("");
    expect(linePath([{ t: 0, v: null }], x, y)).toBe("");
    const unplaced = (v: unknown) => ((v as number) > 1e300 ? Number.NaN : y(v));
    expect(
      linePath(
        [
          { t: 0, v: 1 },
          { t: 1, v: 1e301 },
          { t: 2, v: 3 },
        ],
        x,
        unplaced,
      ),
    ).toBe("M10,99h0M14,97h0");
  });

  it("draws a point alone, a one-token row or one between gaps, as a zero-length segment (a dot)", () => {
    expect(linePath([{ t: 0, v: 1 }], x, y)).toBe("M10,99h0");
    const islands = [
      { t: 0, v: 1 },
      { t: 1, v: null },
      { t: 2, v: 3 },
      { t: 3, v: 4 },
    ];
    expect(linePath(islands, x, y)).toBe("M10,99h0M14,97L16,96");
  });
});

/** The marks of a rendered plot, as Observable Plot's tests read theirs: each element's drawing attributes. */
function marks(markup: string) {
  const attr = (tag: string, name: string) => new RegExp(`${name}="([^"]*)"`).exec(tag)?.[1];
  const paths = [...markup.matchAll(/<path [^>]*>/g)].map(([tag]) => ({
    what: attr(tag, "data-name") ?? attr(tag, "class") ?? attr(tag, "stroke"),
    d: attr(tag, "d"),
  }));
  const rects = [...markup.matchAll(/<rect [^>]*>/g)].map(([tag]) => [attr(tag, "x"), attr(tag, "width")].map(Number));
  const texts = [...markup.matchAll(/<text ([^>]*)>([^<]*)<\/text>/g)].map(([, tag, label]) =>
    [attr(tag, "x"), attr(tag, "y"), label].join(" "),
  );
  return { paths, rects, texts };
}

describe("TokenPlot", () => {
  it("draws its grid, axes, shades, chunk lines and lines through the token and value scales", () => {
    // 5 tokens on a 600 × 100 plot: x spans [72, 584] over tokens −0.5…4.5, 102.4 px a token, so
    // token t is at 72 + 102.4·(t + 0.5); y spans [76, 8] over values 0…4, 17 px a unit.
    const markup = renderToStaticMarkup(
      <TokenPlot
        width={600}
        height={100}
        length={5}
        value={{ domain: [0, 4], ticks: [0, 2, 4], tickFormatter: (v) => `v${v}` }}
        shades={[{ spans: [[1, 3]], fill: "#888", opacity: 0.2 }]}
        boundaries={{ lines: [3], crowded: false }}
        lines={[
          {
            name: "serial",
            points: [
              { t: 0, v: 0 },
              { t: 1, v: 1 },
              { t: 2, v: null },
              { t: 3, v: 3 },
              { t: 4, v: 4 },
            ],
            style: { colour: "#000", width: 1 },
          },
        ]}
      />,
    );
    expect(marks(markup)).toEqual({
      paths: [
        // The chunk starting at token 3: between tokens 2 and 3 (x 379.2), on a whole pixel's centre.
        { what: "#9ca3af", d: "M379.5,8V76" },
        { what: "token-plot-grid", d: "M72,76H584M72,42H584M72,8H584" },
        { what: "#666", d: "M72,8V76M66,76h6M66,42h6M66,8h6" },
        { what: "#666", d: "M72,76H584M123.2,76v6M225.6,76v6M328,76v6M430.4,76v6M532.8,76v6" },
        { what: "serial", d: "M123.2,76L225.6,59M430.4,25L532.8,8" },
      ],
      // Tokens 1 and 2 shaded: from x(0.5) to x(2.5).
      rects: [[174.4, 204.8]],
      texts: ["64 76 v0", "64 42 v2", "64 8 v4", "123.2 84 0", "225.6 84 1", "328 84 2", "430.4 84 3", "532.8 84 4"],
    });
  });
});
