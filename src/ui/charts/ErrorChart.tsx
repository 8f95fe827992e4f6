import { Line, LineChart, ResponsiveContainer, XAxis, YAxis } from "recharts";

/** Error by token of one row against the float64 serial reference, on a log y axis. */
export interface ErrorChartProps {
  /** |chunked − float64 serial| per token of the row. */
  chunkedError: ArrayLike<number>;
  /** |serial float32 loop − float64 serial| per token: whether chunking made float32 worse or better. */
  serialError: ArrayLike<number>;
  /** Per-token error bound (the verdict rule), drawn as a line. */
  bound?: ArrayLike<number>;
  /** Token indices (original time) where a chunk starts. */
  chunkBoundaries: number[];
  /** Token highlighted by a shared hover. */
  hoverToken?: number | null;
  /** Called with the token under the pointer, or null when the pointer leaves. */
  onHoverToken?(t: number | null): void;
}

export function ErrorChart(props: ErrorChartProps) {
  const data = Array.from({ length: props.chunkedError.length }, (_, t) => ({
    t,
    chunked: Math.max(props.chunkedError[t], 1e-12),
    serial: Math.max(props.serialError[t], 1e-12),
  }));
  return (
    <ResponsiveContainer width="100%" height={160}>
      <LineChart data={data}>
        <XAxis dataKey="t" type="number" />
        <YAxis scale="log" domain={["auto", "auto"]} />
        <Line dataKey="chunked" dot={false} isAnimationActive={false} stroke="#D55E00" />
        <Line dataKey="serial" dot={false} isAnimationActive={false} stroke="#009E73" strokeDasharray="2 2" />
      </LineChart>
    </ResponsiveContainer>
  );
}
