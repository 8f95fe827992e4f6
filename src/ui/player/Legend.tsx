import { memo, useMemo } from "react";
import { errorSummary } from "../../compute/player/errorSummary";
import type { Replay } from "../../compute/player/replay";
import { cellErrors, stageExtents } from "../../compute/player/stageModel";
import { formatShort } from "../../io/formatNumber";
import {
  CARRY_COLOUR,
  errorDecades,
  errorFill,
  MATRIX_COLOUR,
  NON_FINITE_FILL,
  signedFill,
  ZERO_ERROR_FILL,
} from "./colors";

function Swatch({ fill, stroke, children }: { fill: string; stroke?: string; children: string }) {
  return (
    <span className="legend-item">
      <svg width="14" height="12" aria-hidden="true">
        <rect
          x="1"
          y="1"
          width="12"
          height="10"
          rx="2"
          fill={fill}
          stroke={stroke ?? "none"}
          strokeWidth={stroke ? 2 : 0}
        />
      </svg>
      {children}
    </span>
  );
}

/** What the stage's colours, hatches and outlines mean, with the numbers at the ends of each scale. */
export const Legend = memo(function Legend({ replay: r, rows }: { replay: Replay; rows: number[] }) {
  const extents = useMemo(() => stageExtents(r, rows), [r, rows]);
  const decades = useMemo(() => errorDecades(cellErrors(r)), [r]);
  /** A signed colour ramp from −extent to +extent, the scale of one kind of lane. */
  const ramp = (what: string, extent: number) => (
    <span className="legend-item">
      {what} −{formatShort(extent)}
      <svg width="70" height="12" aria-hidden="true">
        {[-1, -0.5, 0, 0.5, 1].map((u) => (
          <rect key={u} x={(u + 1) * 14} y={1} width={14} height={10} fill={signedFill(u * extent, extent)} />
        ))}
      </svg>
      +{formatShort(extent)}
    </span>
  );
  const levels = decades ? Array.from({ length: decades.hi - decades.lo + 1 }, (_, n) => decades.lo + n) : [];
  return (
    <div className="stage-legend">
      {ramp("inputs", extents.input)}
      {ramp("sums", extents.output)}
      <span className="legend-item">
        |error|
        <svg width={14 * (levels.length + 1)} height="12" aria-hidden="true">
          <rect x={0} y={1} width={13} height={10} fill={ZERO_ERROR_FILL} />
          {levels.map((d, n) => (
            <rect key={d} x={14 * (n + 1)} y={1} width={13} height={10} fill={errorFill(1.5 * 10 ** d, decades)} />
          ))}
        </svg>
        {levels.length > 0 ? `0, 1e${levels[0]} … 1e${levels[levels.length - 1]} · ✕ over bound` : "all exactly 0"}
      </span>
      {errorSummary(r).nonFinite > 0 ? <Swatch fill={NON_FINITE_FILL}>NaN / ∞ (no error measured)</Swatch> : null}
      <Swatch fill="url(#player-hatch)">padding</Swatch>
      {r.reinforce ? <Swatch fill="url(#player-mask)">masked</Swatch> : null}
      <Swatch fill="#fff" stroke={MATRIX_COLOUR}>
        feeds the current value
      </Swatch>
      <Swatch fill="#fff" stroke={CARRY_COLOUR}>
        carry
      </Swatch>
    </div>
  );
});
