import { labelColor } from "./cpGeometry";

/** Room left of every lane for its rank's name; the lane's plot starts here. */
export const LANE_LABEL_WIDTH = 88;

/** The rank's name in a box of its colour, left of its lane, the text dark or light to read on it. */
export function RankLabel({ rank, fill, y, height }: { rank: number; fill: string; y: number; height: number }) {
  return (
    <>
      <rect x={0} y={y} width={LANE_LABEL_WIDTH - 8} height={height} rx={3} fill={fill} />
      <text x={(LANE_LABEL_WIDTH - 8) / 2} y={y + height / 2 + 4} fill={labelColor(fill)} className="cp-lane-label">
        {`rank ${rank}`}
      </text>
    </>
  );
}

/** Said in the lane of a rank that holds no response token, where its values would be. */
export function NoResponseToken({ middle }: { middle: number }) {
  return (
    <text x={LANE_LABEL_WIDTH + 6} y={middle + 4} className="cp-none">
      no response token
    </text>
  );
}

/** The lanes' shared axis, named at its first index and numbered at its last, below the last lane. */
export function LaneAxisEnds({ first, last, plot, y }: { first: string; last: number; plot: number; y: number }) {
  return (
    <>
      <text x={LANE_LABEL_WIDTH} y={y} className="cp-tick">
        {first}
      </text>
      <text x={LANE_LABEL_WIDTH + plot} y={y} className="cp-tick" textAnchor="end">
        {last}
      </text>
    </>
  );
}
