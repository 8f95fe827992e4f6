import type { RefObject } from "react";
import { LineDrawShape, type LineDrawShapeProps } from "recharts";

/**
 * recharts' own line shape, with the path's ref left out of recharts' reach: recharts then never
 * measures the path (`getTotalLength`, which forces a layout of the page on every render of a line,
 * tens of ms on a long series) for an entrance animation our lines do not have. The SVG is the same.
 */
export function StaticLineShape(props: LineDrawShapeProps) {
  // A ref of this render's own, never read: recharts reads its ref only to animate.
  const unread = { current: null } as unknown as RefObject<SVGPathElement>;
  return <LineDrawShape {...props} pathRef={unread} />;
}
