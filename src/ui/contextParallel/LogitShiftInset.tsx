import type { CpLayout } from "../../core";
import { labelColor, rankColor } from "./cpGeometry";

const CELL = 44;

/**
 * A magnifier on the prompt–response boundary: positions P − 3 … P + 3 as tokens, and below each
 * token the logit that predicts it (one position to the left), coloured by the rank holding it.
 */
export function LogitShiftInset({ layout }: { layout: CpLayout }) {
  const P = layout.promptLength;
  const first = Math.max(1, P - 3);
  const last = Math.min(layout.totalLength - 1, P + 3);
  const positions = Array.from({ length: last - first + 1 }, (_, i) => first + i);
  const rankOf = (position: number) => {
    const chunk = Math.floor(position / layout.chunkLength);
    return Math.min(chunk, 2 * layout.cpSize - 1 - chunk);
  };
  const width = positions.length * CELL + 110;
  return (
    <svg
      className="cp-inset"
      width={width}
      height={112}
      role="img"
      aria-label={`Logit ${P - 1}, the prompt's last, predicts response token 0 at position ${P}`}
      data-testid="cp-logit-shift"
    >
      <defs>
        <marker id="cp-arrowhead" viewBox="0 0 6 6" refX="5" refY="3" markerWidth="6" markerHeight="6" orient="auto">
          <path d="M0,0 L6,3 L0,6 z" fill="#374151" />
        </marker>
      </defs>
      <text x={0} y={26} className="cp-row-label">
        tokens
      </text>
      <text x={0} y={92} className="cp-row-label">
        logits
      </text>
      {positions.map((position, i) => {
        const x = 100 + i * CELL;
        const response = position >= P;
        const logit = position - 1;
        const fill = rankColor(rankOf(logit), layout.cpSize);
        return (
          <g key={position}>
            <rect
              x={x}
              y={8}
              width={CELL - 6}
              height={28}
              className={response ? "cp-token response" : "cp-token prompt"}
            />
            <text x={x + (CELL - 6) / 2} y={20} className="cp-cell-index">
              {position}
            </text>
            <text x={x + (CELL - 6) / 2} y={32} className="cp-cell-note">
              {response ? `resp ${position - P}` : "prompt"}
            </text>
            <line
              x1={x + (CELL - 6) / 2 - CELL}
              y1={72}
              x2={x + (CELL - 6) / 2 - 4}
              y2={40}
              className="cp-arrow"
              markerEnd="url(#cp-arrowhead)"
            />
            <rect x={x - CELL} y={74} width={CELL - 6} height={28} fill={fill} opacity={response ? 1 : 0.35} />
            <text x={x - CELL + (CELL - 6) / 2} y={86} fill={labelColor(fill)} className="cp-cell-index">
              {logit}
            </text>
            <text x={x - CELL + (CELL - 6) / 2} y={98} fill={labelColor(fill)} className="cp-cell-note">
              {`r${rankOf(logit)}`}
            </text>
          </g>
        );
      })}
    </svg>
  );
}
