import { CartesianGrid, Line, LineChart, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";

/** Serial float64 against the chunked result for one batch row (returns or advantages). */
export interface ReturnsChartProps {
  /** Heading drawn above the chart, e.g. "Returns, row 2" or "Advantages, row 2". */
  title: string;
  /** Float64 serial reference of one row, valid tokens only. */
  reference: ArrayLike<number>;
  /** The chunked result of the same row (float32 engine, slime-exact, or float64), same length. */
  chunked: ArrayLike<number>;
  /** Legend label of the chunked series, e.g. "chunked float32 (webgpu, two-level)". */
  chunkedLabel: string;
  /** Token indices (original time) where a chunk starts; drawn as vertical lines. */
  chunkBoundaries: number[];
  /** Loss mask of the row (0 = masked token, shaded). */
  lossMask?: ArrayLike<number>;
  /** Token highlighted by a shared hover (from the heatmap, the editor or the other chart). */
  hoverToken?: number | null;
  /** Called with the token under the pointer, or null when the pointer leaves. */
  onHoverToken?(t: number | null): void;
}

export function ReturnsChart(props: ReturnsChartProps) {
  const data = Array.from({ length: props.reference.length }, (_, t) => ({
    t,
    reference: props.reference[t],
    chunked: props.chunked[t],
  }));
  return (
    <figure className="returns-chart">
      <figcaption>{props.title}</figcaption>
      <ResponsiveContainer width="100%" height={220}>
        <LineChart data={data}>
          <CartesianGrid strokeDasharray="3 3" />
          <XAxis dataKey="t" type="number" />
          <YAxis />
          <Tooltip />
          {props.chunkBoundaries.map((b) => (
            <ReferenceLine key={b} x={b} stroke="#999" />
          ))}
          <Line dataKey="reference" dot={false} isAnimationActive={false} stroke="#0072B2" />
          <Line dataKey="chunked" dot={false} isAnimationActive={false} stroke="#D55E00" strokeDasharray="5 3" />
        </LineChart>
      </ResponsiveContainer>
    </figure>
  );
}
