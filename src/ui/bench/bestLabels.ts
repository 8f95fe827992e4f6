/**
 * Where the sweep plots write "best C": one label per distinct chunk size (strategies that chose the
 * same C share it, above the highest of their rings), and a label that would cover another moves
 * below its ring, then a line further out each way, until it clears every label placed before it
 * and stays inside the chart. Pure: it works in the plot's pixels from its log axes, so the chart
 * only draws.
 */

export interface BestPoint {
  strategy: string;
  chunkSize: number;
  value: number;
}

export interface BestLabel {
  chunkSize: number;
  /** The highest ring of the strategies that chose this C: the label sits above it. */
  value: number;
  /** The strategy whose ring that is (the first of them on a tie): the chart hangs the label on it. */
  anchor: string;
  strategies: string[];
  text: string;
  /** Above or below the ring (recharts' label position). */
  position: "top" | "bottom";
  /** Pixels between the ring's centre and the label (recharts' label offset). */
  offset: number;
}

export interface LogFrame {
  x: [number, number];
  y: [number, number];
  /** The plotting area, in pixels. */
  width: number;
  height: number;
  /** Room for a label above and below the plotting area (the chart's margins). */
  above: number;
  below: number;
}

/** Base distance from a ring's centre to its label, and one step further out; the labels are 11 px text. */
export const LABEL_OFFSET = 12;
export const LINE_HEIGHT = 13;
/** Steps tried each way before a label is left where it collides least badly (never in practice). */
const MAX_STEPS = 8;
/** About the width of an 11 px digit or letter, enough for "best 1024". */
const CHAR_WIDTH = 6.5;

export function bestLabels(points: readonly BestPoint[], frame: LogFrame): BestLabel[] {
  const groups = new Map<number, BestPoint[]>();
  for (const p of points) {
    if (!(p.value > 0)) continue;
    groups.set(p.chunkSize, [...(groups.get(p.chunkSize) ?? []), p]);
  }
  const at = (v: number, [lo, hi]: [number, number], pixels: number) => (Math.log(v / lo) / Math.log(hi / lo)) * pixels;
  const placed: Box[] = [];
  const labels: BestLabel[] = [];
  for (const [chunkSize, group] of [...groups].sort(([a], [b]) => a - b)) {
    const highest = group.reduce((a, b) => (b.value > a.value ? b : a));
    const value = highest.value;
    const text = `best ${chunkSize}`;
    const x = at(chunkSize, frame.x, frame.width);
    const y = frame.height - at(value, frame.y, frame.height);
    const halfWidth = (text.length * CHAR_WIDTH) / 2;
    const box = (position: "top" | "bottom", offset: number) => {
      const top = position === "top" ? y - offset - LINE_HEIGHT : y + offset;
      return { left: x - halfWidth, right: x + halfWidth, top, bottom: top + LINE_HEIGHT };
    };
    const fits = (b: Box) =>
      b.top >= -frame.above &&
      b.bottom <= frame.height + frame.below &&
      !placed.some((p) => b.left < p.right && p.left < b.right && b.top < p.bottom && p.top < b.bottom);
    let choice: { position: "top" | "bottom"; offset: number } = { position: "top", offset: LABEL_OFFSET };
    search: for (let step = 0; step < MAX_STEPS; step++) {
      for (const position of ["top", "bottom"] as const) {
        const offset = LABEL_OFFSET + step * LINE_HEIGHT;
        if (fits(box(position, offset))) {
          choice = { position, offset };
          break search;
        }
      }
    }
    placed.push(box(choice.position, choice.offset));
    labels.push({
      chunkSize,
      value,
      anchor: highest.strategy,
      strategies: group.map((p) => p.strategy),
      text,
      ...choice,
    });
  }
  return labels;
}

type Box = { left: number; right: number; top: number; bottom: number };
