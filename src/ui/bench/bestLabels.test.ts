import { describe, expect, it } from "vitest";
import { type BestPoint, bestLabels, LABEL_OFFSET, type LogFrame } from "./bestLabels";

const FRAME: LogFrame = { x: [8 / 1.3, 1024 * 1.3], y: [1, 1000], width: 240, height: 140, above: 16, below: 40 };

/** The label's box in plot pixels, as bestLabels places it (6.5 px a character, 13 px a line). */
function box(label: ReturnType<typeof bestLabels>[number], frame = FRAME) {
  const x = (Math.log(label.chunkSize / frame.x[0]) / Math.log(frame.x[1] / frame.x[0])) * frame.width;
  const y = frame.height - (Math.log(label.value / frame.y[0]) / Math.log(frame.y[1] / frame.y[0])) * frame.height;
  const half = (label.text.length * 6.5) / 2;
  const top = label.position === "top" ? y - label.offset - 13 : y + label.offset;
  return { left: x - half, right: x + half, top, bottom: top + 13 };
}

function overlaps(a: ReturnType<typeof box>, b: ReturnType<typeof box>): boolean {
  return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
}

describe("bestLabels", () => {
  it("writes one label for strategies that chose the same chunk size, above the higher ring", () => {
    const points: BestPoint[] = [
      { strategy: "chunked", chunkSize: 128, value: 30 },
      { strategy: "two-level", chunkSize: 128, value: 12 },
    ];
    expect(bestLabels(points, FRAME)).toEqual([
      {
        chunkSize: 128,
        value: 30,
        anchor: "chunked",
        strategies: ["chunked", "two-level"],
        text: "best 128",
        position: "top",
        offset: LABEL_OFFSET,
      },
    ]);
  });

  it("keeps labels of neighbouring chunk sizes at the same height apart, inside the chart", () => {
    const points: BestPoint[] = [
      { strategy: "chunked", chunkSize: 64, value: 20 },
      { strategy: "two-level", chunkSize: 128, value: 21 },
      { strategy: "fused", chunkSize: 256, value: 19 },
    ];
    const labels = bestLabels(points, FRAME);
    expect(labels.map((l) => l.chunkSize)).toEqual([64, 128, 256]);
    const boxes = labels.map((l) => box(l));
    for (let i = 0; i < boxes.length; i++) {
      expect(boxes[i].top).toBeGreaterThanOrEqual(-FRAME.above);
      expect(boxes[i].bottom).toBeLessThanOrEqual(FRAME.height + FRAME.below);
      for (let j = 0; j < i; j++) expect(overlaps(boxes[i], boxes[j])).toBe(false);
    }
    expect(labels[0]).toMatchObject({ position: "top", offset: LABEL_OFFSET });
  });

  it("puts a label under its ring when the top of the chart has no room", () => {
    const points: BestPoint[] = [
      { strategy: "chunked", chunkSize: 512, value: 990 },
      { strategy: "two-level", chunkSize: 1024, value: 980 },
    ];
    const labels = bestLabels(points, FRAME);
    const boxes = labels.map((l) => box(l));
    expect(overlaps(boxes[0], boxes[1])).toBe(false);
    for (const b of boxes) expect(b.top).toBeGreaterThanOrEqual(-FRAME.above);
  });

  it("skips points with no positive value (nothing to ring on a log axis)", () => {
    expect(bestLabels([{ strategy: "chunked", chunkSize: 8, value: 0 }], FRAME)).toEqual([]);
  });
});
