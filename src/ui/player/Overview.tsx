import { CARRY_COLOUR, MATRIX_COLOUR } from "./colors";
import type { Frame } from "./frame";
import type { Replay } from "./replay";
import type { StageLayout } from "./stageLayout";
import { LABEL_WIDTH } from "./stageModel";

/**
 * Every chunk of a long row as one cell (binned when they outnumber the pixels), in the stage's
 * time direction: scanned chunks in the matrix hue, carried ones in the carry accent, the window
 * drawn in full outlined. A click jumps to that chunk.
 */
export function Overview({
  replay: r,
  frame: f,
  layout,
  width,
  onChunk,
}: {
  replay: Replay;
  frame: Frame;
  layout: StageLayout;
  width: number;
  onChunk(chunk: number): void;
}) {
  const n = r.nChunks;
  const inner = Math.max(100, width - LABEL_WIDTH - 4);
  const bins = Math.min(n, Math.floor(inner / 3));
  const w = inner / bins;
  const original = layout.view === "original";
  const chunkOfBin = (bin: number) => Math.floor((bin * n) / bins);
  const [c0, c1] = layout.window;
  const cells = [];
  for (let bin = 0; bin < bins; bin++) {
    const first = chunkOfBin(bin);
    const last = Math.max(first, chunkOfBin(bin + 1) - 1);
    const x = original ? inner - (bin + 1) * w : bin * w;
    const carried = last < f.reveal.carried;
    const scanned = last < f.reveal.localChunk || f.reveal.localChunk >= n;
    const fill = carried ? CARRY_COLOUR : scanned ? MATRIX_COLOUR : "#e5e7eb";
    cells.push(
      <rect
        key={bin}
        x={x}
        y={2}
        width={Math.max(1, w - (w > 4 ? 1 : 0))}
        height={12}
        fill={fill}
        opacity={carried || scanned ? 0.75 : 1}
      >
        <title>{first === last ? `chunk ${first}` : `chunks ${first}–${last}`}</title>
      </rect>,
    );
  }
  const binOf = (c: number) => Math.floor((c * bins) / n);
  const wx0 = original ? inner - (binOf(c1) + 1) * w : binOf(c0) * w;
  const wx1 = original ? inner - binOf(c0) * w : (binOf(c1) + 1) * w;
  return (
    <svg
      className="overview"
      width={LABEL_WIDTH + inner + 4}
      height={18}
      role="img"
      aria-label={`All ${n} chunks; chunks ${c0}–${c1} drawn in full`}
    >
      <text x={LABEL_WIDTH - 8} y={12} textAnchor="end" className="lane-label">
        {n} chunks
      </text>
      <g
        transform={`translate(${LABEL_WIDTH} 0)`}
        onPointerDown={(e) => {
          const box = (e.currentTarget as SVGGElement).getBoundingClientRect();
          const bin = Math.floor((e.clientX - box.left) / w);
          const c = chunkOfBin(original ? bins - 1 - bin : bin);
          onChunk(Math.max(0, Math.min(n - 1, c)));
        }}
      >
        <rect x={0} y={0} width={inner} height={16} fill="transparent" />
        {cells}
        <rect className="overview-window" x={wx0 - 1} y={0.5} width={wx1 - wx0 + 2} height={15} fill="none" />
      </g>
    </svg>
  );
}
