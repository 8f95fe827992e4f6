import type { CpPanelModel } from "../../compute/contextParallel/cpPanelModel";
import { type CpStep, STEP_TITLES } from "../../compute/contextParallel/cpSteps";
import { formatSpan } from "../../core";
import { envelopePath, rankColor, valueScale } from "./cpGeometry";
import { LANE_LABEL_WIDTH, LaneAxisEnds, NoResponseToken, RankLabel } from "./laneParts";

const LANE = 34;

type LaneStep = Exclude<CpStep, "split" | "shift">;

/**
 * One lane per rank on the response axis [0, R): what the rank holds at this step. Its pieces are
 * boxes in the rank's colour (labelled with their response indices); the values are drawn inside
 * as a min/max envelope. The gather adds the summed vector, the scan the output every rank computes.
 */
export function RankLanes({ model, step, width }: { model: CpPanelModel; step: LaneStep; width: number }) {
  const { layout } = model;
  const R = layout.responseLength;
  const plot = Math.max(60, width - LANE_LABEL_WIDTH - 4);
  const x = (k: number) => LANE_LABEL_WIDTH + (k / R) * plot;
  const showsOutput = step === "scan" || step === "slice";
  const values = showsOutput ? model.output : model.gathered;
  const extraLane = step === "gather" || step === "scan";
  const lanes = layout.cpSize + (extraLane ? 1 : 0);
  const height = lanes * LANE + 18;
  const y0 = (lane: number) => lane * LANE;
  const name = showsOutput ? model.outputLabel : model.inputLabel;
  return (
    <svg
      className="cp-lanes"
      width={width}
      height={height}
      role="img"
      aria-label={`${STEP_TITLES[step]}: each rank's ${name} on the response axis, 0 to ${R - 1}`}
      data-testid="cp-lanes"
      data-step={step}
    >
      {layout.ranks.map((rank, r) => {
        const fill = rankColor(r, layout.cpSize);
        const top = y0(r);
        const y = valueScale([values], top + 5, top + LANE - 5);
        // At the scan every rank holds all R values; otherwise only its pieces carry values.
        const full = step === "scan";
        return (
          <g key={rank.rank} data-testid="cp-lane" data-rank={r}>
            <RankLabel rank={r} fill={fill} y={top + 4} height={LANE - 8} />
            <rect x={LANE_LABEL_WIDTH} y={top + 4} width={plot} height={LANE - 8} className="cp-lane-bg" />
            {step === "gather" || full ? (
              <line x1={LANE_LABEL_WIDTH} x2={LANE_LABEL_WIDTH + plot} y1={y(0)} y2={y(0)} className="cp-zero" />
            ) : null}
            {rank.pieces.map(({ chunk, response, localOffset }) => {
              if (!response) return null;
              const [a, z] = [x(response.start), x(response.end)];
              const local = { start: localOffset, end: localOffset + response.end - response.start };
              return (
                <g key={chunk}>
                  <rect
                    x={a}
                    y={top + 4}
                    width={Math.max(1, z - a)}
                    height={LANE - 8}
                    fill={fill}
                    opacity={0.3}
                    stroke={fill}
                  />
                  <title>{`rank ${r}, chunk ${chunk}: response ${formatSpan(response)}, local ${formatSpan(local)}`}</title>
                  {z - a > 56 ? (
                    <text x={a + 3} y={top + 13} className="cp-piece-label">
                      {formatSpan(response)}
                    </text>
                  ) : null}
                  {!full ? (
                    <path d={envelopePath(values, response.start, response.end, a, z, y)} className="cp-values" />
                  ) : null}
                </g>
              );
            })}
            {full ? <path d={envelopePath(values, 0, R, x(0), x(R), y)} className="cp-values" /> : null}
            {rank.localLength === 0 ? <NoResponseToken middle={top + LANE / 2} /> : null}
          </g>
        );
      })}
      {extraLane ? <SummaryLane model={model} step={step} top={y0(layout.cpSize)} plot={plot} x={x} /> : null}
      <LaneAxisEnds first="response token 0" last={R - 1} plot={plot} y={height - 3} />
    </svg>
  );
}

/** Below the ranks: the all-reduce's sum (gather), or the scan's output over all R tokens. */
function SummaryLane({
  model,
  step,
  top,
  plot,
  x,
}: {
  model: CpPanelModel;
  step: LaneStep;
  top: number;
  plot: number;
  x: (k: number) => number;
}) {
  const R = model.layout.responseLength;
  const values = step === "scan" ? model.output : model.gathered;
  const y = valueScale([values], top + 5, top + LANE - 5);
  const label = step === "scan" ? "scan" : "Σ ranks";
  return (
    <g data-testid="cp-summary-lane">
      <rect x={0} y={top + 4} width={LANE_LABEL_WIDTH - 8} height={LANE - 8} rx={3} className="cp-sum-label" />
      <text x={(LANE_LABEL_WIDTH - 8) / 2} y={top + LANE / 2 + 4} className="cp-lane-label sum">
        {label}
      </text>
      <rect x={LANE_LABEL_WIDTH} y={top + 4} width={plot} height={LANE - 8} className="cp-lane-bg sum" />
      {model.layout.ranks.flatMap((rank) =>
        rank.pieces.map((piece) =>
          piece.response ? (
            <rect
              key={piece.chunk}
              x={x(piece.response.start)}
              y={top + LANE - 8}
              width={Math.max(1, x(piece.response.end) - x(piece.response.start))}
              height={4}
              fill={rankColor(rank.rank, model.layout.cpSize)}
            />
          ) : null,
        ),
      )}
      <line x1={LANE_LABEL_WIDTH} x2={LANE_LABEL_WIDTH + plot} y1={y(0)} y2={y(0)} className="cp-zero" />
      <path d={envelopePath(values, 0, R, x(0), x(R), y)} className="cp-values sum" />
    </g>
  );
}
