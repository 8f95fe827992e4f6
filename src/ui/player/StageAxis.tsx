import type { Frame } from "../../compute/player/frame";
import { type Replay, tokenOf } from "../../compute/player/replay";
import type { StageLayout } from "../../compute/player/stageLayout";
import { AXIS_HEIGHT, LABEL_WIDTH } from "../../compute/player/stageModel";

/** The chunk bands (the focus chunk outlined, the short one named) and the token axis above the lanes. */
export function Axis({
  replay: r,
  frame: f,
  layout,
  height,
}: {
  replay: Replay;
  frame: Frame;
  layout: StageLayout;
  height: number;
}) {
  const every = layout.cell >= 14 ? 1 : layout.cell >= 7 ? 4 : layout.cell >= 3 ? 8 : 32;
  return (
    <g className="axis" transform={`translate(${LABEL_WIDTH} 0)`}>
      {layout.bands.map((band) => {
        const current = band.chunk === f.focusChunk && f.step.chunk >= 0;
        const short = band.chunk === r.nChunks - 1 && r.pad > 0;
        return (
          <g key={band.chunk} className={`chunk-band${current ? " current" : ""}`} data-chunk={band.chunk}>
            <rect x={band.x - 2} y={14} width={band.width + 4} height={height - 14} rx={4} />
            <text x={band.x + band.width / 2} y={10} textAnchor="middle" className="chunk-label">
              {band.width >= 60 ? `chunk ${band.chunk}${short ? " (short)" : ""}` : `c${band.chunk}`}
            </text>
          </g>
        );
      })}
      {layout.tokens.map((col) => {
        const t = layout.view === "original" ? tokenOf(r, col.i) : col.i;
        if (t < 0 && layout.view === "original") return null;
        if (t % every !== 0 && !(layout.view === "original" && t === r.cols - 1)) return null;
        // Leave room for the label of a fold beside the first or last drawn chunk.
        const nearFold = layout.folds.some((fold) => Math.abs(col.x - fold.x) < fold.width + 14);
        if (nearFold && every > 1) return null;
        return (
          <text key={col.i} x={col.x + layout.cell / 2} y={AXIS_HEIGHT - 6} textAnchor="middle" className="tick">
            {t}
          </text>
        );
      })}
      {layout.folds.map((fold) => (
        <text
          key={fold.firstChunk}
          x={fold.x + fold.width / 2}
          y={AXIS_HEIGHT - 6}
          textAnchor="middle"
          className="tick"
        >
          {foldLabel(fold.lastChunk - fold.firstChunk + 1, fold.width)}
        </text>
      ))}
      <text x={-8} y={AXIS_HEIGHT - 6} textAnchor="end" className="tick axis-name">
        {layout.view === "original" ? "t" : "i (reversed)"}
      </text>
    </g>
  );
}

/** How many chunks a fold holds, in the room it has: "+3" on a phone's narrow fold (the overview strip names them). */
function foldLabel(chunks: number, width: number): string {
  if (width < 56) return `+${chunks}`;
  return chunks === 1 ? "1 chunk" : `${chunks} chunks`;
}
