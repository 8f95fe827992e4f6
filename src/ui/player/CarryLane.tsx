import { dataValue, f32 } from "../../compute/player/captions";
import type { Frame } from "../../compute/player/frame";
import type { Replay } from "../../compute/player/replay";
import type { StageLayout } from "../../compute/player/stageLayout";
import { LABEL_WIDTH } from "../../compute/player/stageModel";
import { formatShort } from "../../io/formatNumber";

/** Arrows from each chunk's last value into the next chunk, labelled with the carry (per row). */
export function CarryLane({
  replay: r,
  frame: f,
  layout,
  b,
  y,
}: {
  replay: Replay;
  frame: Frame;
  layout: StageLayout;
  b: number;
  y: number;
}) {
  const C = r.chunkSize;
  const mid = y + 15;
  return (
    <g transform={`translate(${LABEL_WIDTH} 0)`}>
      {layout.bands.map((band) => {
        const c = band.chunk;
        if (c >= f.reveal.carried) return null;
        const value = r.carriesIn[b * r.nChunks + c];
        const current = f.step.kind === "carry" && f.step.chunk === c;
        const source = layout.tokens.find((col) => col.i === c * C - 1);
        const fold = layout.folds.find((fd) => fd.firstChunk <= c - 1 && c - 1 <= fd.lastChunk);
        // The source cell (or the fold that hides it) lies next to the band: right of it in original time.
        const sourceX =
          c === 0
            ? undefined
            : source
              ? source.x + layout.cell / 2
              : fold
                ? layout.view === "original"
                  ? fold.x
                  : fold.x + fold.width
                : undefined;
        const into = layout.view === "original" ? band.x + band.width : band.x;
        const label =
          band.width >= 48 ? `s_${c} = ${band.width >= 130 ? f32(value) : formatShort(value)}` : formatShort(value);
        return (
          <g key={c} className={`carry${current ? " current" : ""}`}>
            <line className="carry-bracket" x1={band.x + 1} x2={band.x + band.width - 1} y1={mid + 6} y2={mid + 6} />
            {sourceX !== undefined ? (
              <path
                className="carry-arrow"
                d={`M${sourceX},${y + 1} C${sourceX},${mid + 6} ${into},${mid + 6} ${into + (layout.view === "original" ? -2 : 2)},${mid + 6}`}
                markerEnd="url(#player-carry-head)"
              />
            ) : null}
            <text
              className="carry-value"
              x={band.x + band.width / 2}
              y={mid + 1}
              textAnchor="middle"
              data-testid="carry-value"
              data-row={b}
              data-chunk={c}
              data-value={dataValue(value)}
            >
              {label}
            </text>
          </g>
        );
      })}
    </g>
  );
}
