import { memo, type PointerEvent, useDeferredValue, useMemo, useRef, useState } from "react";
import { PX_PER_BUCKET } from "../../compute/playground/downsample";
import { maskedSpans, mergeGapFor } from "../../compute/playground/spans";
import {
  firstPicked,
  REPLAY_ENGINE,
  type SampleFieldsAnswer,
  STORED_ENGINE,
  type StoredFieldName,
  type TokenField,
  tokenFields,
} from "../../compute/run/sampleFields";
import { formatShort } from "../../io/formatNumber";
import { LegendSample } from "../charts/chartLegend";
import { linePoints, tokenAtX, valueAxisOf } from "../charts/chartSeries";
import { MASK_FILL, PLOT_LEFT, PLOT_RIGHT, SERIES } from "../charts/plotLayout";
import { TokenPlot } from "../charts/TokenPlot";
import { useWidth } from "../charts/useWidth";

export interface RunSampleFieldsProps {
  /** The selected sample's index in the dump. */
  sample: number;
  /**
   * The last sample's stored fields and replayed lines the worker sent (the page never holds the whole
   * batch's): busy while they are not the selected sample's.
   */
  answer: SampleFieldsAnswer | null;
  /** Why the worker sent no fields. */
  problem: string | null;
}

/** Each field's chart: tall enough to read a line's shape, short enough that six fit on a screen. */
const CHART_HEIGHT = 112;
const REPLAYED_STYLE = SERIES.reference;
/** The loss mask is 0 or 1: its axis says so, never a flat line's ±1% around 1. */
const MASK_AXIS = { domain: [0, 1] as [number, number], ticks: [0, 1], tickFormatter: (v: number) => String(v) };
const STORED_STYLE = SERIES.stored;
/** What the charts show before their first deferred render: nothing. */
const NO_VIEW: { fields: TokenField[]; length: number; spans: Array<[number, number]> } = {
  fields: [],
  length: 0,
  spans: [],
};

/**
 * The selected sample's every per-token field (advantages, returns, values, KL, the log-probs it is
 * made of, entropy, loss mask) as stacked charts on one token axis, the loss-mask-0 spans (slime's tool
 * and observation tokens) shaded in each, and one hover line through all of them with every shown
 * field's value at that token.
 */
export function RunSampleFields({ sample, answer, problem }: RunSampleFieldsProps) {
  const [picked, setPicked] = useState<StoredFieldName[] | null>(null);
  const [hover, setHover] = useState<number | null>(null);
  const wrap = useRef<HTMLDivElement>(null);
  const width = useWidth(wrap, 640);

  const shownSample = answer?.sample ?? null;
  const length = answer?.length ?? 0;
  const fields = useMemo(() => {
    if (!answer) return [];
    const replayed = answer.replayed ?? { advantages: null, returns: null, kl: null };
    return tokenFields(answer.fields, replayed, answer.length);
  }, [answer]);
  const chosen = useMemo(() => picked ?? firstPicked(fields), [picked, fields]);
  const shown = useMemo(() => fields.filter((f) => chosen.includes(f.name)), [fields, chosen]);
  const lossMask = answer?.fields.loss_masks;
  const exactSpans = useMemo(() => maskedSpans(lossMask, length), [lossMask, length]);
  const drawnSpans = useMemo(
    () => maskedSpans(lossMask, length, mergeGapFor(length, width)),
    [lossMask, length, width],
  );
  // The charts follow in a deferred render, which React splits into short tasks between the charts:
  // choosing a sample never waits on six charts drawn in one task. Their length and spans are deferred
  // with them: given at once, they drew the last sample's six charts again at the new length, in the
  // task that brought the new sample (most of a 16k-token sample's selection).
  const view = useMemo(() => ({ fields: shown, length, spans: drawnSpans }), [shown, length, drawnSpans]);
  // At mount too: without an initial value the first render drew all six charts in the task that
  // mounted the view with the verdict's heatmap and sample chart (a 35 ms-of-CPU task at 512 samples).
  const drawn = useDeferredValue(view, NO_VIEW);
  const maskedTokens = exactSpans.reduce((n, [a, b]) => n + b - a, 0);

  const toggle = (name: StoredFieldName) =>
    setPicked(chosen.includes(name) ? chosen.filter((n) => n !== name) : [...chosen, name]);
  const onPointer = (event: PointerEvent<HTMLDivElement>) => {
    const box = event.currentTarget.getBoundingClientRect();
    setHover(tokenAtX(event.clientX - box.left, PLOT_LEFT, width - PLOT_RIGHT, length));
  };
  const hoverAt = hover !== null && hover < length ? hover : null;
  const plotWidth = Math.max(1, width - PLOT_LEFT - PLOT_RIGHT);

  return (
    <section
      className="panel sample-fields"
      aria-labelledby="sample-fields-title"
      aria-busy={shownSample !== sample || drawn !== view}
      data-testid="sample-fields"
      data-sample={shownSample ?? undefined}
      data-fields={fields.map((f) => f.name).join(" ")}
    >
      <h2 id="sample-fields-title">Sample {shownSample ?? sample}: every per-token field</h2>
      {problem ? (
        <p className="error-message" role="alert">
          {problem}
        </p>
      ) : null}
      <p className="muted small">
        {length} tokens on one axis. Shaded:{" "}
        {exactSpans.length === 0
          ? "no loss-mask-0 tokens in this sample"
          : `loss mask 0 (tool and observation tokens: ${exactSpans.length} span${exactSpans.length === 1 ? "" : "s"}, ${maskedTokens} tokens)`}
        . Point at a chart for every shown field's value at that token.
      </p>
      <fieldset className="sample-fields-picker">
        <legend>Fields</legend>
        {fields.map((f) => (
          <label key={f.name}>
            <input
              type="checkbox"
              checked={chosen.includes(f.name)}
              onChange={() => toggle(f.name)}
              data-testid={`sample-field-${f.name}`}
            />{" "}
            {f.label}
          </label>
        ))}
      </fieldset>
      <ul className="sample-fields-engines small">
        <li>
          <LegendSample entry={{ label: REPLAY_ENGINE, ...REPLAYED_STYLE }} /> {REPLAY_ENGINE} (the KL:
          compute_approx_kl of the stored log-probs, recomputed in float64)
        </li>
        <li>
          <LegendSample entry={{ label: STORED_ENGINE, ...STORED_STYLE }} /> {STORED_ENGINE}
        </li>
      </ul>
      <p className="sample-fields-readout small" data-testid="sample-fields-readout" aria-live="off">
        {hoverAt === null
          ? "\u00a0"
          : `token ${hoverAt}: ${shown
              .map(
                (f) =>
                  `${f.label} ${f.lines.map((l) => `${formatShort(l.values[hoverAt])}${l.role === "replayed" ? " (replay)" : ""}`).join(" / ")}`,
              )
              .join(", ")}${lossMask && lossMask[hoverAt] === 0 ? " · loss mask 0" : ""}`}
      </p>
      <div className="sample-fields-charts" ref={wrap} onPointerMove={onPointer} onPointerLeave={() => setHover(null)}>
        {drawn.fields.map((f) => (
          <FieldChart key={f.name} field={f} length={drawn.length} width={width} spans={drawn.spans} />
        ))}
        {hoverAt !== null ? (
          <div
            className="sample-fields-hover"
            aria-hidden="true"
            style={{ left: PLOT_LEFT + ((hoverAt + 0.5) / Math.max(1, length)) * plotWidth }}
          />
        ) : null}
      </div>
    </section>
  );
}

interface FieldChartProps {
  field: TokenField;
  length: number;
  width: number;
  spans: Array<[number, number]>;
}

/** One field's chart: its lines (the replay's and the dump's), the masked spans behind them. */
const FieldChart = memo(function FieldChart({ field, length, width, spans }: FieldChartProps) {
  const buckets = Math.max(1, Math.floor((width - PLOT_LEFT - PLOT_RIGHT) / PX_PER_BUCKET));
  const lines = useMemo(
    () => field.lines.map((line) => ({ line, points: linePoints(line.values, length, buckets) })),
    [field, length, buckets],
  );
  const axis = useMemo(
    () =>
      field.name === "loss_masks"
        ? MASK_AXIS
        : valueAxisOf(
            lines.map((l) => l.points),
            CHART_HEIGHT,
          ),
    [field.name, lines],
  );
  const plot = useMemo(
    () => (
      <TokenPlot
        width={width}
        height={CHART_HEIGHT}
        length={length}
        value={axis}
        shades={[{ spans, fill: MASK_FILL, opacity: 0.16 }]}
        lines={lines.map(({ line, points }) => ({
          name: `${field.name} ${line.role}`,
          points,
          style: line.role === "replayed" ? REPLAYED_STYLE : STORED_STYLE,
        }))}
      />
    ),
    [width, length, axis, spans, lines, field.name],
  );
  return (
    <figure className="sample-fields-chart" data-field={field.name}>
      <figcaption className="small">
        {field.label}
        <span className="muted">
          {" "}
          · {field.lines.map((l) => (l.role === "replayed" ? "replay" : "dump")).join(" and ")}
        </span>
      </figcaption>
      {plot}
    </figure>
  );
});
