import type { CpPanelModel } from "../../compute/contextParallel/cpPanelModel";
import { envelopePath, rankColor, valueScale } from "./cpGeometry";
import { LANE_LABEL_WIDTH, LaneAxisEnds, NoResponseToken, RankLabel } from "./laneParts";

const LANE = 40;

/**
 * Each rank's whitened values in its local order, on one scale for all ranks: with the DP×CP
 * group's statistics (solid) and with the rank's own (dashed). Where they part is the difference
 * PR #2235 removed.
 */
export function WhiteningLanes({ model, width }: { model: CpPanelModel; width: number }) {
  const rows = model.whitening.rows;
  const longest = Math.max(1, ...rows.map((r) => r.tokens));
  const plot = Math.max(60, width - LANE_LABEL_WIDTH - 4);
  const all = rows.flatMap((r) => [r.groupWhitened, r.ownWhitened].filter((a): a is Float32Array => a !== null));
  const height = rows.length * LANE + 16;
  return (
    <svg
      className="cp-lanes"
      width={width}
      height={height}
      role="img"
      aria-label="Each rank's whitened values in local order: with the group's statistics (solid) and its own (dashed)"
      data-testid="cp-whitening-lanes"
    >
      {rows.map((row) => {
        const top = row.rank * LANE;
        const y = valueScale(all, top + 4, top + LANE - 4);
        const fill = rankColor(row.rank, model.layout.cpSize);
        const x1 = LANE_LABEL_WIDTH + (row.tokens / longest) * plot;
        return (
          <g key={row.rank}>
            <RankLabel rank={row.rank} fill={fill} y={top + 6} height={LANE - 12} />
            <rect x={LANE_LABEL_WIDTH} y={top + 2} width={plot} height={LANE - 4} className="cp-lane-bg" />
            <line x1={LANE_LABEL_WIDTH} x2={LANE_LABEL_WIDTH + plot} y1={y(0)} y2={y(0)} className="cp-zero" />
            {row.groupWhitened ? (
              <path d={envelopePath(row.groupWhitened, 0, row.tokens, LANE_LABEL_WIDTH, x1, y)} className="cp-values" />
            ) : null}
            {row.ownWhitened ? (
              <path
                d={envelopePath(row.ownWhitened, 0, row.tokens, LANE_LABEL_WIDTH, x1, y)}
                className="cp-values own"
              />
            ) : null}
            {row.tokens === 0 ? <NoResponseToken middle={top + LANE / 2} /> : null}
          </g>
        );
      })}
      <LaneAxisEnds first="local index 0" last={longest - 1} plot={plot} y={height - 3} />
    </svg>
  );
}
