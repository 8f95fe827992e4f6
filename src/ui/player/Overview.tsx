import { useEffect, useRef } from "react";
import type { Frame } from "../../compute/player/frame";
import type { Replay } from "../../compute/player/replay";
import type { StageLayout } from "../../compute/player/stageLayout";
import { LABEL_WIDTH } from "../../compute/player/stageModel";
import { CARRY_COLOUR, MATRIX_COLOUR } from "./colors";

/** Which chunks one bin of the overview holds, when chunks outnumber the pixels. */
export function overviewBins(nChunks: number, width: number): { bins: number; first(bin: number): number } {
  const bins = Math.max(1, Math.min(nChunks, Math.floor(width / 3)));
  return { bins, first: (bin) => Math.floor((bin * nChunks) / bins) };
}

/**
 * Every chunk of a long row as one cell (binned when they outnumber the pixels), in the stage's
 * time direction: scanned chunks in the matrix hue, carried ones in the carry accent, the window
 * drawn in full outlined. One canvas, so scrubbing redraws a single element. A click jumps there.
 */
export function Overview(props: {
  replay: Replay;
  frame: Frame;
  layout: StageLayout;
  width: number;
  onChunk(chunk: number): void;
}) {
  const { replay: r, frame: f, layout, width, onChunk } = props;
  const canvas = useRef<HTMLCanvasElement>(null);
  const inner = Math.max(100, width - LABEL_WIDTH - 4);
  const n = r.nChunks;
  const { bins, first } = overviewBins(n, inner);
  const w = inner / bins;
  const original = layout.view === "original";
  const [c0, c1] = layout.window;
  const { localChunk, carried } = f.reveal;

  useEffect(() => {
    const context = canvas.current?.getContext("2d");
    if (!context) return;
    const scale = window.devicePixelRatio || 1;
    context.setTransform(scale, 0, 0, scale, 0, 0);
    context.clearRect(0, 0, inner, 16);
    const binOf = (c: number) => Math.floor((c * bins) / n);
    for (let bin = 0; bin < bins; bin++) {
      const last = Math.max(first(bin), first(bin + 1) - 1);
      const x = original ? inner - (bin + 1) * w : bin * w;
      const done = last < carried;
      const scanned = last < localChunk || localChunk >= n;
      context.globalAlpha = done || scanned ? 0.75 : 1;
      context.fillStyle = done ? CARRY_COLOUR : scanned ? MATRIX_COLOUR : "#e5e7eb";
      context.fillRect(x, 2, Math.max(1, w - (w > 4 ? 1 : 0)), 12);
    }
    context.globalAlpha = 1;
    const x0 = original ? inner - (binOf(c1) + 1) * w : binOf(c0) * w;
    const x1 = original ? inner - binOf(c0) * w : (binOf(c1) + 1) * w;
    context.strokeStyle = "#111827";
    context.lineWidth = 1.5;
    context.strokeRect(x0 - 0.5, 0.75, x1 - x0 + 1, 14.5);
  }, [inner, bins, first, n, w, original, c0, c1, localChunk, carried]);

  const scale = typeof window === "undefined" ? 1 : window.devicePixelRatio || 1;
  return (
    <div className="overview">
      <span className="overview-label" style={{ width: LABEL_WIDTH - 8 }}>
        {n} chunks
      </span>
      <canvas
        ref={canvas}
        width={Math.round(inner * scale)}
        height={Math.round(16 * scale)}
        style={{ width: inner, height: 16 }}
        role="img"
        aria-label={`All ${n} chunks; chunks ${c0}–${c1} are drawn in full below. Click to jump to a chunk.`}
        onPointerDown={(e) => {
          const box = e.currentTarget.getBoundingClientRect();
          const bin = Math.max(0, Math.min(bins - 1, Math.floor((e.clientX - box.left) / w)));
          onChunk(Math.max(0, Math.min(n - 1, first(original ? bins - 1 - bin : bin))));
        }}
      />
    </div>
  );
}
