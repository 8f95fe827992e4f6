import { cellLoss, cellLossText, cellReadout, relFloor } from "../../../compute/playground/cellErrors";
import { formatExact as formatValue } from "../../../compute/playground/formatExact";
import type { OutputName } from "../../../compute/playground/outputTables";
import type { PlaygroundResult } from "../../../compute/playground/playgroundRun";
import { formatShort } from "../../../io/formatNumber";
import type { PlaygroundRow } from "../../../io/playgroundState";
import { chunkOfToken } from "../../charts/chunkBoundaries";

export interface ReadoutLine {
  label: string;
  value: string;
  /** Marks the line that breaks the bound (drawn with a glyph, not colour alone). */
  alert?: boolean;
}

const relFloors = new WeakMap<Float64Array, number>();
function floorOf(reference: Float64Array, precision: "float32" | "float64"): number {
  let floor = relFloors.get(reference);
  if (floor === undefined) {
    floor = relFloor(reference, precision);
    relFloors.set(reference, floor);
  }
  return floor;
}

/**
 * Everything known about one token of the charted output, for the fixed hover readout: its place
 * (row, token, chunk), the inputs there, the three results and the error in every measure.
 */
export function readoutAt(
  result: PlaygroundResult,
  rows: PlaygroundRow[],
  output: OutputName,
  chunkStarts: readonly number[],
  row: number,
  token: number,
): ReadoutLine[] | null {
  if (row < 0 || row >= result.rows || token < 0 || token >= result.cols) return null;
  const chunk = chunkStarts.length > 0 ? String(chunkOfToken(chunkStarts, token)) : "–";
  if (token >= result.lengths[row]) {
    return [
      { label: "row · token", value: `${row} · ${token}` },
      { label: "chunk", value: chunk },
      { label: "padding", value: `past the row's ${result.lengths[row]} tokens` },
    ];
  }
  const precision = result.ran.precision === "float64" ? "float64" : "float32";
  const reference = result.reference[output];
  const chunked = result.chunked[output];
  const serial = result.serial32[output];
  const bound = result.bound[output];
  if (!reference || !chunked || !serial || !bound) return null;
  const i = row * result.cols + token;
  const lines: ReadoutLine[] = [
    { label: "row · token", value: `${row} · ${token}` },
    { label: "chunk", value: chunk },
  ];
  const input = rows[row];
  if (input && token < input.length) {
    if (result.kind === "reinforce_pp") {
      lines.push({ label: "KL", value: formatValue(input.kl?.[token] ?? 0, "float32") });
      lines.push({ label: "outcome (row)", value: formatValue(input.outcome ?? 0, "float32") });
    } else {
      lines.push({ label: "reward", value: formatValue(input.rewards?.[token] ?? 0, "float32") });
      if (result.kind === "gae")
        lines.push({ label: "value V", value: formatValue(input.values?.[token] ?? 0, "float32") });
    }
    lines.push({ label: "mask", value: String(input.lossMask?.[token] ?? 1) });
  }
  lines.push(
    { label: "serial float64", value: formatValue(reference[i], "float64") },
    { label: `chunked ${precision}`, value: formatValue(chunked[i], precision) },
    { label: "serial float32 loop", value: formatValue(serial[i], "float32") },
  );
  // A cell NaN or ±Inf took has no error and no bound verdict: say who lost it instead.
  const loss = cellLoss(reference[i], chunked[i]);
  if (loss) {
    const format = (x: number, side: "reference" | "actual") =>
      formatValue(x, side === "reference" ? "float64" : precision);
    lines.push({ label: "error", value: cellLossText(loss, reference[i], chunked[i], undefined, format) });
    return lines;
  }
  const errors = cellReadout(reference[i], chunked[i], precision, floorOf(reference, precision));
  const over = !(errors.abs <= bound[i]);
  lines.push(
    { label: "abs error", value: formatShort(errors.abs), alert: over },
    { label: "rel error", value: formatShort(errors.rel) },
    { label: "ulps", value: String(errors.ulp) },
    { label: "bound", value: `${formatShort(bound[i])}${over ? " ▲ over" : ""}`, alert: over },
  );
  return lines;
}
