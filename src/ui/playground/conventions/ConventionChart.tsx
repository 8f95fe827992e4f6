import { useMemo } from "react";
import { PX_PER_BUCKET } from "../../../compute/playground/downsample";
import { maskedSpans, mergeGapFor } from "../../../compute/playground/spans";
import { formatValue } from "../../../io/formatNumber";
import { ChartFrame, plotOf, type TokenChartProps, useChartBox } from "../../charts/ChartFrame";
import type { ChartLegendModel } from "../../charts/chartLegend";
import { downsampleNotes, linePoints, valueAxisOf } from "../../charts/chartSeries";
import { MASK_FILL } from "../../charts/plotLayout";
import { TokenPlot } from "../../charts/TokenPlot";
import type { OverlayLine } from "./conventionSeries";

export interface ConventionChartProps extends TokenChartProps {
  title: string;
  /** The lines, the library shown first; each value array holds the row's valid tokens. */
  lines: OverlayLine[];
  length: number;
  lossMask?: ArrayLike<number>;
}

/** Two or three libraries' returns (or advantages, or token rewards) of one row, overlaid on the editor's token axis. */
export function ConventionChart(props: ConventionChartProps) {
  const { lines, length, lossMask } = props;
  const box = useChartBox(props.height ?? 200);
  const { width, height, plotWidth } = box;
  const data = useMemo(
    () => lines.map((line) => linePoints(line.values, length, plotWidth / PX_PER_BUCKET)),
    [lines, length, plotWidth],
  );
  const gap = mergeGapFor(length, plotWidth);
  const shades = useMemo(
    () => [{ spans: maskedSpans(lossMask, length, gap), fill: MASK_FILL, opacity: 0.14 }],
    [lossMask, length, gap],
  );
  const drawing = useMemo(
    () => (
      <TokenPlot
        width={width}
        height={height}
        length={length}
        value={valueAxisOf(data, height)}
        shades={shades}
        lines={lines.map((line, i) => ({ name: line.label, points: data[i], style: line }))}
      />
    ),
    [data, width, height, length, lines, shades],
  );

  const legend: ChartLegendModel = {
    title: props.title,
    entries: [
      ...lines.map((line) => ({ label: line.label, colour: line.colour, dash: line.dash, width: line.width })),
      ...(shades[0].spans.length ? [{ label: "masked tokens (loss mask 0)", colour: MASK_FILL, width: 0 }] : []),
    ],
    notes: downsampleNotes(data, length),
  };
  return (
    <ChartFrame
      className="convention-chart"
      legend={legend}
      box={box}
      chart={props}
      length={length}
      plot={plotOf(box, drawing)}
      readout={(t) => (
        <>
          t {t}
          {lines.map((line) => (
            <span key={line.key}>
              {" "}
              · {line.label} {formatValue(line.values[t], line.key === "f32" ? "float32" : "float64")}
            </span>
          ))}
          {lossMask?.[t] === 0 ? " · masked" : ""}
        </>
      )}
    />
  );
}
